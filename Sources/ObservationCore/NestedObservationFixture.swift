/// The nested path the KP rules observe, `root.controller?.player?.title`, built with one
/// backend's own objects.
///
/// Objects are handed around as `AnyObject` so that the rules stay independent of each
/// backend's model classes. A backend with native nested observation (a key-path registry, a
/// Combine chain) provides its own fixture through ``NestedObservationBackend``; every other
/// backend gets one built from its subjects and ``AnyObservable/flatMapLatest(_:)``.
public protocol NestedObservationFixture: AnyObject {
  /// A new controller with no player.
  func makeController() -> AnyObject
  /// A new player whose title is `title`.
  func makePlayer(title: String) -> AnyObject
  /// Sets `root.controller`.
  func setController(_ controller: AnyObject?)
  /// Sets `controller.player`.
  func setPlayer(_ player: AnyObject?, of controller: AnyObject)
  /// Sets `player.title`.
  func setTitle(_ title: String, of player: AnyObject)
  /// Observes `root.controller?.player?.title`: the handler is called at once with the current
  /// leaf (`nil` when an intermediate is `nil`), then once per change.
  func observeTitle(_ handler: @escaping (String?) -> Void) -> AnyObservationToken
  /// Live registrations on `object` (the root when `nil`), or `nil` if the backend cannot tell.
  func observerCount(on object: AnyObject?) -> Int?
}

/// A nested fixture whose controllers can also hold their player weakly, for rule KP-07:
/// `root.controller?.weakPlayer?.title`, where nothing sets `weakPlayer` when the player
/// deallocates.
public protocol WeakIntermediateFixture: NestedObservationFixture {
  /// Sets `controller.weakPlayer`, a weak reference: the player deallocates as soon as nothing
  /// else holds it.
  func setWeakPlayer(_ player: AnyObject?, of controller: AnyObject)
  /// Observes `root.controller?.weakPlayer?.title` as
  /// ``NestedObservationFixture/observeTitle(_:)`` observes the strong path.
  func observeWeakPlayerTitle(_ handler: @escaping (String?) -> Void) -> AnyObservationToken
}

/// A backend that observes nested paths with its own mechanism.
public protocol NestedObservationBackend: ObservationBackend {
  /// A fresh fixture: a root with no controller.
  func makeNestedFixture() -> any NestedObservationFixture
  /// A fresh chain fixture for the harness's `nested` workload, observed with the same
  /// mechanism.
  func makeNestedChainFixture() -> any NestedChainFixture
}

/// Two observable properties on one object, for the AGG rules.
public protocol PropertyPairFixture: AnyObject {
  /// Sets property `a`.
  func setA(_ value: Int)
  /// Sets property `b`.
  func setB(_ value: Int)
  /// Observes property `a`; the handler may be called at once with the current value.
  func observeA(_ handler: @escaping (Int) -> Void) -> AnyObservationToken
  /// Observes property `b`; the handler may be called at once with the current value.
  func observeB(_ handler: @escaping (Int) -> Void) -> AnyObservationToken
  /// Observes the object-level will-change signal, if the object has one.
  func observeObjectWillChange(_ handler: @escaping () -> Void) -> AnyObservationToken?
  /// Observes the derived property `a + b`, if the backend supports derived properties.
  func observeSum(_ handler: @escaping (Int) -> Void) -> AnyObservationToken?
  /// A short description of how the two properties live on the object.
  var layout: String { get }
}

/// A backend that puts several observable properties on one object.
public protocol PropertyPairBackend: ObservationBackend {
  /// A fresh object with `a == 0` and `b == 0`.
  func makePropertyPair() -> any PropertyPairFixture
}
