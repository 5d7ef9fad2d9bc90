import ObservationCore
import ObservationFixtures

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
  func readA() -> Int? { a.get() }
  func readB() -> Int? { b.get() }
}
