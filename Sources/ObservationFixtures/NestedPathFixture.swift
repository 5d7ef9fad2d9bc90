import ObservationCore

/// A path of observable links built with one backend's objects: nodes linked through an
/// observable `next`, each with an observable `title`, observed as `root.next?.next?…?.title`.
///
/// The KP conformance rules observe it at depth 3, `root.next?.next?.title`, the shape of
/// `root.controller?.player?.title`; the harness's `nested` workload observes it at any depth.
/// Depth counts the properties the path reads: `root.title` is depth 1.
///
/// Nodes are handed around as `AnyObject`, so that the rules and the workload stay independent
/// of each backend's model classes. A backend with nested observation of its own (a key-path
/// registry, a Combine chain, `Observations`) provides its fixture through
/// ``NestedPathBackend``; every other backend gets ``SubjectNestedPathFixture``, built from its
/// subjects and `AnyObservable/flatMapLatest(_:)`.
///
/// ```swift
/// let root = fixture.makeNode(title: "root")
/// let controller = fixture.makeNode(title: "controller")
/// let player = fixture.makeNode(title: "Intro")
/// fixture.setNext(player, of: controller)
/// fixture.setNext(controller, of: root)
/// let token = fixture.observeTitle(depth: 3, from: root) { print($0 as Any) }  // "Intro"
/// fixture.setTitle("Chapter 1", of: player)                                     // "Chapter 1"
/// ```
///
/// Two parts are optional and have default implementations: a weak link, `weakNext`, for rule
/// KP-07 (``hasWeakNext``), and counting registrations (``observerCount(on:)``).
public protocol NestedPathFixture: AnyObject {
  /// A new node with no next node and the title `title`.
  func makeNode(title: String) -> AnyObject

  /// Sets `node.next`, a strong reference.
  func setNext(_ next: AnyObject?, of node: AnyObject)

  /// Sets `node.title`.
  func setTitle(_ title: String, of node: AnyObject)

  /// Observes the title `depth - 1` links below `root`: the handler is called with the current
  /// leaf (`nil` where a link is missing), then once per change of the leaf or of a link.
  ///
  /// - Precondition: `depth >= 1`.
  func observeTitle(
    depth: Int, from root: AnyObject, _ handler: @escaping (String?) -> Void
  ) -> AnyObservationToken

  /// Whether nodes also have `weakNext`, a weak link that nothing sets to `nil` when its node
  /// deallocates (rule KP-07); `false` by default.
  var hasWeakNext: Bool { get }

  /// Sets `node.weakNext`, a weak reference: `next` deallocates as soon as nothing else holds it.
  ///
  /// - Precondition: ``hasWeakNext``.
  func setWeakNext(_ next: AnyObject?, of node: AnyObject)

  /// Observes `root.next?.weakNext?.title`, the depth-3 path whose second link is weak, as
  /// ``observeTitle(depth:from:_:)`` observes the strong path.
  ///
  /// - Precondition: ``hasWeakNext``.
  func observeTitleThroughWeakNext(
    from root: AnyObject, _ handler: @escaping (String?) -> Void
  ) -> AnyObservationToken

  /// The live registrations on `node`'s observable properties, or `nil` if the backend cannot
  /// tell (the default).
  func observerCount(on node: AnyObject) -> Int?
}

extension NestedPathFixture {
  /// `false`: nodes have no weak link.
  public var hasWeakNext: Bool { false }

  /// Traps: nodes have no weak link.
  public func setWeakNext(_ next: AnyObject?, of node: AnyObject) {
    preconditionFailure("\(Self.self) has no weak link")
  }

  /// Traps: nodes have no weak link.
  public func observeTitleThroughWeakNext(
    from root: AnyObject, _ handler: @escaping (String?) -> Void
  ) -> AnyObservationToken {
    preconditionFailure("\(Self.self) has no weak link")
  }

  /// `nil`: registrations are not countable.
  public func observerCount(on node: AnyObject) -> Int? { nil }
}
