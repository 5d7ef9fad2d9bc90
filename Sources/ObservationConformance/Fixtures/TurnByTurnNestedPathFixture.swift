import ObservationCore
import ObservationFixtures

/// A backend's nested-path fixture driven one turn at a time: after each observe and each
/// mutation, the rule context lets the backend's scheduled deliveries run
/// (``RuleContext/drain()``).
///
/// The KP rules are about rebinding, not coalescing: they write one change and look at what
/// arrived. An asynchronous backend needs a turn of its delivery loop between the two, the way
/// an app's main run loop turns between user events.
final class TurnByTurnNestedPathFixture: NestedPathFixture {
  private let base: any NestedPathFixture
  private let context: RuleContext

  init(_ base: any NestedPathFixture, context: RuleContext) {
    self.base = base
    self.context = context
  }

  func makeNode(title: String) -> AnyObject { base.makeNode(title: title) }

  func setNext(_ next: AnyObject?, of node: AnyObject) {
    base.setNext(next, of: node)
    context.drain()
  }

  func setTitle(_ title: String, of node: AnyObject) {
    base.setTitle(title, of: node)
    context.drain()
  }

  func observeTitle(
    depth: Int, from root: AnyObject, _ handler: @escaping (String?) -> Void
  ) -> AnyObservationToken {
    afterTurn(base.observeTitle(depth: depth, from: root, handler))
  }

  var hasWeakNext: Bool { base.hasWeakNext }

  func setWeakNext(_ next: AnyObject?, of node: AnyObject) {
    base.setWeakNext(next, of: node)
    context.drain()
  }

  func observeTitleThroughWeakNext(
    from root: AnyObject, _ handler: @escaping (String?) -> Void
  ) -> AnyObservationToken {
    afterTurn(base.observeTitleThroughWeakNext(from: root, handler))
  }

  func observerCount(on node: AnyObject) -> Int? {
    context.drain()
    return base.observerCount(on: node)
  }

  private func afterTurn(_ token: AnyObservationToken) -> AnyObservationToken {
    context.drain()
    return token
  }
}
