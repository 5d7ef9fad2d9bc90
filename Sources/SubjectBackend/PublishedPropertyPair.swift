import ObservationCore
import ObservationFixtures
import OpenCombine

/// Two `@Published` properties on one `ObservableObject`, for the AGG rules.
final class PublishedPropertyPair: PropertyPairFixture {
  final class Pair: ObservableObject {
    @Published var a = 0
    @Published var b = 0
  }

  let object = Pair()

  func setA(_ value: Int) { object.a = value }
  func setB(_ value: Int) { object.b = value }
  func observeA(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    AnyObservationToken(object.$a.sink(receiveValue: handler))
  }
  func observeB(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    AnyObservationToken(object.$b.sink(receiveValue: handler))
  }
  func observeObjectWillChange(_ handler: @escaping () -> Void) -> AnyObservationToken? {
    AnyObservationToken(object.objectWillChange.sink { _ in handler() })
  }
  /// `ObservableObject` has no derived properties that publish.
  func observeSum(_ handler: @escaping (Int) -> Void) -> AnyObservationToken? { nil }
  var layout: String { "two @Published properties on one ObservableObject" }
  func readA() -> Int? { object.a }
  func readB() -> Int? { object.b }
}
