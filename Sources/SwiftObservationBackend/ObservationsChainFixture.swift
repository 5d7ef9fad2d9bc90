import Observation
import ObservationCore

/// ``NestedChainFixture`` with `Observations`: one sequence whose closure walks the links, so
/// the framework tracks every property the walk reads.
final class ObservationsChainFixture: NestedChainFixture {
  @Observable final class Node {
    var title: String
    var next: Node?
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
}

extension SwiftObservationsStrategy {
  /// A chain of `@Observable` nodes observed with one `Observations` sequence.
  public func makeNestedChainFixture() -> any NestedChainFixture { ObservationsChainFixture() }
}
