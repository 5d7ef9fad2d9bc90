import ObservationCore
import ObservationFixtures

extension RuleContext {
  /// The backend's own nested-path fixture, or one built from its subjects; `nil` if neither
  /// exists.
  ///
  /// For an asynchronous backend it takes one turn of delivery per step
  /// (``TurnByTurnNestedPathFixture``).
  func nestedFixture() -> (any NestedPathFixture)? {
    guard let fixture = backend.makeAnyNestedPathFixture() else { return nil }
    if has(.synchronousDelivery) { return fixture }
    return TurnByTurnNestedPathFixture(fixture, context: self)
  }

  /// Whether ``nestedFixture()`` is the backend's own.
  var hasNativeNestedObservation: Bool { backend is any NestedPathBackend }

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
