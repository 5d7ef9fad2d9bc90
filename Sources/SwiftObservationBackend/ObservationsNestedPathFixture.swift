import Observation
import ObservationCore
import ObservationFixtures

/// ``NestedPathFixture`` with `Observations`: one sequence whose closure walks the links, so the
/// framework tracks every property the walk reads; `weakNext` is a `weak var` of the
/// `@Observable` node.
final class ObservationsNestedPathFixture: NestedPathFixture {
  @Observable final class Node {
    var title: String
    var next: Node?
    weak var weakNext: Node?
    init(title: String) { self.title = title }
  }

  func makeNode(title: String) -> AnyObject { Node(title: title) }
  func setNext(_ next: AnyObject?, of node: AnyObject) { (node as! Node).next = next as? Node }
  func setTitle(_ title: String, of node: AnyObject) { (node as! Node).title = title }

  func observeTitle(
    depth: Int, from root: AnyObject, _ handler: @escaping (String?) -> Void
  ) -> AnyObservationToken {
    precondition(depth >= 1, "depth must be at least 1")
    let root = root as! Node
    return AnyObservationToken(
      observeChanges(
        { () -> String? in
          var node = root
          for _ in 1..<depth {
            guard let next = node.next else { return nil }
            node = next
          }
          return node.title
        }, handler: handler))
  }

  var hasWeakNext: Bool { true }

  func setWeakNext(_ next: AnyObject?, of node: AnyObject) {
    (node as! Node).weakNext = next as? Node
  }

  func observeTitleThroughWeakNext(
    from root: AnyObject, _ handler: @escaping (String?) -> Void
  ) -> AnyObservationToken {
    let root = root as! Node
    return AnyObservationToken(observeChanges({ root.next?.weakNext?.title }, handler: handler))
  }

  /// `Observations` does not expose its registrations.
  func observerCount(on node: AnyObject) -> Int? { nil }
}
