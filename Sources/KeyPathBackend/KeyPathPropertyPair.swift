import ObservationCore
import ObservationFixtures

/// Two tracked properties and a derived one on one object, for the AGG rules.
final class KeyPathPropertyPair: PropertyPairFixture {
  final class Pair: KeyPathObservable {
    let keyPathRegistrar = KeyPathRegistrar()
    @Tracked var a = 0
    @Tracked var b = 0
    /// A derived property: observing it tracks `a` and `b`.
    var sum: Int { a + b }
  }

  let object = Pair()

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
  func readA() -> Int? { object.a }
  func readB() -> Int? { object.b }
}
