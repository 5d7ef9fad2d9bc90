import ObservationCore
import ObservationFixtures

/// A backend's two-property object driven one turn at a time, like
/// ``TurnByTurnNestedPathFixture``.
final class TurnByTurnPropertyPair: PropertyPairFixture {
  private let base: any PropertyPairFixture
  private let context: RuleContext

  init(_ base: any PropertyPairFixture, context: RuleContext) {
    self.base = base
    self.context = context
  }

  func setA(_ value: Int) {
    base.setA(value)
    context.drain()
  }

  func setB(_ value: Int) {
    base.setB(value)
    context.drain()
  }

  func observeA(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    afterTurn(base.observeA(handler))
  }

  func observeB(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    afterTurn(base.observeB(handler))
  }

  func observeObjectWillChange(_ handler: @escaping () -> Void) -> AnyObservationToken? {
    afterTurn(base.observeObjectWillChange(handler))
  }

  func observeSum(_ handler: @escaping (Int) -> Void) -> AnyObservationToken? {
    afterTurn(base.observeSum(handler))
  }

  var layout: String { base.layout }
  func readA() -> Int? { base.readA() }
  func readB() -> Int? { base.readB() }

  private func afterTurn<Token>(_ token: Token) -> Token {
    context.drain()
    return token
  }
}
