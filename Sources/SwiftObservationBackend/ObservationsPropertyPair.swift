import Observation
import ObservationCore
import ObservationFixtures

/// Two tracked properties and a derived one on one `@Observable` object, for the AGG rules.
final class ObservationsPropertyPair: PropertyPairFixture {
  @Observable final class Pair {
    var a = 0
    var b = 0
    /// A derived property: reading it reads `a` and `b`, so observing it tracks both.
    var sum: Int { a + b }
  }

  let object = Pair()

  func setA(_ value: Int) { object.a = value }
  func setB(_ value: Int) { object.b = value }
  func observeA(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    let object = object
    return AnyObservationToken(observeChanges({ object.a }, handler: handler))
  }
  func observeB(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    let object = object
    return AnyObservationToken(observeChanges({ object.b }, handler: handler))
  }
  func observeObjectWillChange(_ handler: @escaping () -> Void) -> AnyObservationToken? { nil }
  func observeSum(_ handler: @escaping (Int) -> Void) -> AnyObservationToken? {
    let object = object
    return AnyObservationToken(observeChanges({ object.sum }, handler: handler))
  }
  var layout: String { "two tracked properties and a computed `sum` on one @Observable object" }
  func readA() -> Int? { object.a }
  func readB() -> Int? { object.b }
}
