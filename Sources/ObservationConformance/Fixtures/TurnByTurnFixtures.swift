import ObservationCore

/// A backend's nested fixture driven one turn at a time: after each observe and each mutation,
/// the rule context lets the backend's scheduled deliveries run (``RuleContext/drain()``).
///
/// The KP rules are about rebinding, not coalescing: they write one change and look at what
/// arrived. An asynchronous backend needs a turn of its delivery loop between the two, the way
/// an app's main run loop turns between user events.
class TurnByTurnNestedFixture: NestedObservationFixture {
  private let base: any NestedObservationFixture
  fileprivate let context: RuleContext

  init(_ base: any NestedObservationFixture, context: RuleContext) {
    self.base = base
    self.context = context
  }

  func makeController() -> AnyObject { base.makeController() }
  func makePlayer(title: String) -> AnyObject { base.makePlayer(title: title) }

  func setController(_ controller: AnyObject?) {
    base.setController(controller)
    context.drain()
  }

  func setPlayer(_ player: AnyObject?, of controller: AnyObject) {
    base.setPlayer(player, of: controller)
    context.drain()
  }

  func setTitle(_ title: String, of player: AnyObject) {
    base.setTitle(title, of: player)
    context.drain()
  }

  func observeTitle(_ handler: @escaping (String?) -> Void) -> AnyObservationToken {
    let token = base.observeTitle(handler)
    context.drain()
    return token
  }

  func observerCount(on object: AnyObject?) -> Int? {
    context.drain()
    return base.observerCount(on: object)
  }
}

/// A nested fixture with a weakly held player, driven one turn at a time like
/// ``TurnByTurnNestedFixture``.
final class TurnByTurnWeakIntermediateFixture: TurnByTurnNestedFixture, WeakIntermediateFixture {
  private let weakBase: any WeakIntermediateFixture

  init(_ base: any WeakIntermediateFixture, context: RuleContext) {
    weakBase = base
    super.init(base, context: context)
  }

  func setWeakPlayer(_ player: AnyObject?, of controller: AnyObject) {
    weakBase.setWeakPlayer(player, of: controller)
    context.drain()
  }

  func observeWeakPlayerTitle(_ handler: @escaping (String?) -> Void) -> AnyObservationToken {
    let token = weakBase.observeWeakPlayerTitle(handler)
    context.drain()
    return token
  }
}

/// A backend's two-property object driven one turn at a time, like
/// ``TurnByTurnNestedFixture``.
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

  private func afterTurn<Token>(_ token: Token) -> Token {
    context.drain()
    return token
  }
}
