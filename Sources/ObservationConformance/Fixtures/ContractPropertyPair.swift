import ObservationCore

/// Two properties as two subjects of the backend: how the AGG rules run on backends without
/// objects of several properties.
final class ContractPropertyPair: PropertyPairFixture {
  let a: TestSubject<Int>
  let b: TestSubject<Int>

  init(context: RuleContext) {
    a = context.subject(0)
    b = context.subject(0)
  }

  func setA(_ value: Int) { a.value = value }
  func setB(_ value: Int) { b.value = value }
  func observeA(_ handler: @escaping (Int) -> Void) -> AnyObservationToken { a.observe(handler) }
  func observeB(_ handler: @escaping (Int) -> Void) -> AnyObservationToken { b.observe(handler) }
  func observeObjectWillChange(_ handler: @escaping () -> Void) -> AnyObservationToken? { nil }
  func observeSum(_ handler: @escaping (Int) -> Void) -> AnyObservationToken? { nil }
  var layout: String { "two separate subjects (the backend has no objects of several properties)" }
}

extension RuleContext {
  /// The backend's own nested fixture, or one built from its subjects; `nil` if neither exists.
  ///
  /// For an asynchronous backend it takes one turn of delivery per step
  /// (``TurnByTurnNestedFixture``).
  func nestedFixture() -> (any NestedObservationFixture)? {
    guard let fixture = backend.makeAnyNestedFixture() else { return nil }
    if has(.synchronousDelivery) { return fixture }
    if let weak = fixture as? any WeakIntermediateFixture {
      return TurnByTurnWeakIntermediateFixture(weak, context: self)
    }
    return TurnByTurnNestedFixture(fixture, context: self)
  }

  /// Whether ``nestedFixture()`` is the backend's own.
  var hasNativeNestedObservation: Bool { backend is any NestedObservationBackend }

  /// The backend's own object of two properties, or two separate subjects.
  ///
  /// For an asynchronous backend it takes one turn of delivery per step
  /// (``TurnByTurnPropertyPair``).
  func propertyPair() -> any PropertyPairFixture {
    let pair: any PropertyPairFixture
    if let native = backend as? any PropertyPairBackend {
      pair = native.makePropertyPair()
    } else {
      pair = ContractPropertyPair(context: self)
    }
    return has(.synchronousDelivery) ? pair : TurnByTurnPropertyPair(pair, context: self)
  }
}
