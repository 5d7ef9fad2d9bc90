import ObservationCore
import ObservationFixtures

/// `root.controller?.player?.title`, the path the KP rules observe, as the depth-3 path of a
/// ``NestedPathFixture``: the root's `next` is the controller, and the controller's `next` (or,
/// for KP-07, its `weakNext`) is the player.
struct PlayerTitlePath {
  /// Root → controller → player → title reads three properties.
  static let depth = 3

  let fixture: any NestedPathFixture
  /// The root node, which starts with no controller.
  let root: AnyObject

  /// A new root with no controller, made by `fixture`.
  init(_ fixture: any NestedPathFixture) {
    self.fixture = fixture
    root = fixture.makeNode(title: "root")
  }

  /// Whether a controller can hold its player weakly (``setWeakPlayer(_:of:)``).
  var hasWeakPlayer: Bool { fixture.hasWeakNext }

  /// A new controller with no player.
  func makeController() -> AnyObject { fixture.makeNode(title: "controller") }

  /// A new player whose title is `title`.
  func makePlayer(title: String) -> AnyObject { fixture.makeNode(title: title) }

  /// Sets `root.controller`.
  func setController(_ controller: AnyObject?) { fixture.setNext(controller, of: root) }

  /// Sets `controller.player`.
  func setPlayer(_ player: AnyObject?, of controller: AnyObject) {
    fixture.setNext(player, of: controller)
  }

  /// Sets `player.title`.
  func setTitle(_ title: String, of player: AnyObject) { fixture.setTitle(title, of: player) }

  /// Observes `root.controller?.player?.title`: the handler is called at once with the current
  /// leaf (`nil` when an intermediate is `nil`), then once per change.
  func observeTitle(_ handler: @escaping (String?) -> Void) -> AnyObservationToken {
    fixture.observeTitle(depth: Self.depth, from: root, handler)
  }

  /// Sets `controller.weakPlayer`, a weak reference.
  func setWeakPlayer(_ player: AnyObject?, of controller: AnyObject) {
    fixture.setWeakNext(player, of: controller)
  }

  /// Observes `root.controller?.weakPlayer?.title` as ``observeTitle(_:)`` observes the strong
  /// path.
  func observeWeakPlayerTitle(_ handler: @escaping (String?) -> Void) -> AnyObservationToken {
    fixture.observeTitleThroughWeakNext(from: root, handler)
  }

  /// Live registrations on `object` (the root when `nil`), or `nil` if the backend cannot tell.
  func observerCount(on object: AnyObject?) -> Int? { fixture.observerCount(on: object ?? root) }
}
