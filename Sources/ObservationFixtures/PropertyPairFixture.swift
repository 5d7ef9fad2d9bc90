import ObservationCore

/// Two observable properties on one object, built with one backend's objects, for the AGG
/// conformance rules.
///
/// A backend whose objects hold several observable properties (an `ObservableObject`, an
/// `@Observable` class, a key-path-observable class) provides one through
/// ``PropertyPairBackend``; for every other backend the rules use two separate subjects.
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
  /// Property `a`'s current value, read without observing it, or `nil` (the default) where
  /// the fixture cannot read it. DIFF-01's aggregate scripts read both after every step, and
  /// run only on a fixture that reads.
  ///
  /// - Complexity: O(1).
  func readA() -> Int?
  /// Property `b`'s current value; see ``readA()``.
  ///
  /// - Complexity: O(1).
  func readB() -> Int?
}

extension PropertyPairFixture {
  /// `nil`: the fixture cannot read `a` without observing it.
  public func readA() -> Int? { nil }
  /// `nil`: the fixture cannot read `b` without observing it.
  public func readB() -> Int? { nil }
}
