import ObservationCore
import ObservationFixtures

/// One property of a backend's two-property object, as a subject: how DIFF-01's aggregate
/// scripts drive `a` and `b` of one object with the machinery of two-subject scripts.
///
/// Built only over a fixture that reads its properties (``PropertyPairFixture/readA()``).
final class PairProperty: ObservableValue {
  enum Property {
    case a
    case b
  }

  private let pair: any PropertyPairFixture
  private let property: Property

  init(_ property: Property, of pair: any PropertyPairFixture) {
    self.pair = pair
    self.property = property
  }

  var value: Int {
    get {
      let read = property == .a ? pair.readA() : pair.readB()
      guard let read else { preconditionFailure("PairProperty over a pair that does not read") }
      return read
    }
    set {
      switch property {
      case .a: pair.setA(newValue)
      case .b: pair.setB(newValue)
      }
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    property == .a ? pair.observeA(handler) : pair.observeB(handler)
  }
}
