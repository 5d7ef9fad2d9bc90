import ObservationCore

/// The KP rules' model, as plain Swift classes opted in to the key-path registry.
enum KeyPathFixtureModel {
  final class Player: KeyPathObservable {
    let keyPathRegistrar = KeyPathRegistrar()
    @Tracked var title: String
    init(title: String) { _title = Tracked(wrappedValue: title) }
  }

  final class Controller: KeyPathObservable {
    let keyPathRegistrar = KeyPathRegistrar()
    @Tracked var player: Player?
    @WeakTracked var weakPlayer: Player?
    init() {
      _player = Tracked(wrappedValue: nil)
      _weakPlayer = WeakTracked(wrappedValue: nil)
    }
  }

  final class Root: KeyPathObservable {
    let keyPathRegistrar = KeyPathRegistrar()
    @Tracked var controller: Controller?
    init() { _controller = Tracked(wrappedValue: nil) }
  }

  final class Pair: KeyPathObservable {
    let keyPathRegistrar = KeyPathRegistrar()
    @Tracked var a = 0
    @Tracked var b = 0
    /// A derived property: observing it tracks `a` and `b`.
    var sum: Int { a + b }
  }
}

/// `root.controller?.player?.title` observed with the registry's own nested key paths; the
/// controller's `weakPlayer` is `@WeakTracked`.
final class KeyPathNestedFixture: WeakIntermediateFixture {
  typealias Model = KeyPathFixtureModel
  let root = Model.Root()

  func makeController() -> AnyObject { Model.Controller() }
  func makePlayer(title: String) -> AnyObject { Model.Player(title: title) }
  func setController(_ controller: AnyObject?) { root.controller = controller as? Model.Controller }
  func setPlayer(_ player: AnyObject?, of controller: AnyObject) {
    (controller as! Model.Controller).player = player as? Model.Player
  }
  func setTitle(_ title: String, of player: AnyObject) { (player as! Model.Player).title = title }

  func observeTitle(_ handler: @escaping (String?) -> Void) -> AnyObservationToken {
    AnyObservationToken(
      root.observe(\.controller?.player?.title, options: [.initial, .new]) { _, change in
        handler(change.newValue ?? nil)
      })
  }

  func setWeakPlayer(_ player: AnyObject?, of controller: AnyObject) {
    (controller as! Model.Controller).weakPlayer = player as? Model.Player
  }

  func observeWeakPlayerTitle(_ handler: @escaping (String?) -> Void) -> AnyObservationToken {
    AnyObservationToken(
      root.observe(\.controller?.weakPlayer?.title, options: [.initial, .new]) { _, change in
        handler(change.newValue ?? nil)
      })
  }

  func observerCount(on object: AnyObject?) -> Int? {
    ((object ?? root) as? any KeyPathObservable)?.keyPathRegistrar.observerCount
  }
}

/// Two tracked properties and a derived one on one object.
final class KeyPathPropertyPair: PropertyPairFixture {
  let object = KeyPathFixtureModel.Pair()

  func setA(_ value: Int) { object.a = value }
  func setB(_ value: Int) { object.b = value }
  func observeA(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    AnyObservationToken(
      object.observe(\.a, options: [.initial, .new]) { _, c in handler(c.newValue!) })
  }
  func observeB(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    AnyObservationToken(
      object.observe(\.b, options: [.initial, .new]) { _, c in handler(c.newValue!) })
  }
  func observeObjectWillChange(_ handler: @escaping () -> Void) -> AnyObservationToken? { nil }
  func observeSum(_ handler: @escaping (Int) -> Void) -> AnyObservationToken? {
    AnyObservationToken(
      object.observe(\.sum, options: [.initial, .new]) { _, c in handler(c.newValue!) })
  }
  var layout: String { "two @Tracked properties and a computed `sum` on one KeyPathObservable" }
}

extension KeyPathStrategy: NestedObservationBackend, PropertyPairBackend {
  /// A fixture observed with `root.observe(\.controller?.player?.title, ...)`.
  public func makeNestedFixture() -> any NestedObservationFixture { KeyPathNestedFixture() }

  /// An object with two `@Tracked` properties and a computed property reading both.
  public func makePropertyPair() -> any PropertyPairFixture { KeyPathPropertyPair() }
}
