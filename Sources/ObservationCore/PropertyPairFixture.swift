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
