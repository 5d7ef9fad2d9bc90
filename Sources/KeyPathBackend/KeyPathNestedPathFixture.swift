import ObservationCore
import ObservationFixtures

/// ``NestedPathFixture`` with the registry's own nested key paths: the path
/// `\Node.next?.next?…?.title` is built by appending one link per level, and `weakNext` is
/// `@WeakTracked`.
final class KeyPathNestedPathFixture: NestedPathFixture {
  final class Node: KeyPathObservable {
    let keyPathRegistrar = KeyPathRegistrar()
    @Tracked var title: String
    @Tracked var next: Node?
    @WeakTracked var weakNext: Node?
    init(title: String) {
      _title = Tracked(wrappedValue: title)
      _next = Tracked(wrappedValue: nil)
      _weakNext = WeakTracked(wrappedValue: nil)
    }
  }

  func makeNode(title: String) -> AnyObject { Node(title: title) }
  func setNext(_ next: AnyObject?, of node: AnyObject) { (node as! Node).next = next as? Node }
  func setTitle(_ title: String, of node: AnyObject) { (node as! Node).title = title }

  func observeTitle(
    depth: Int, from root: AnyObject, _ handler: @escaping (String?) -> Void
  ) -> AnyObservationToken {
    precondition(depth >= 1, "depth must be at least 1")
    let root = root as! Node
    guard depth > 1 else {
      return AnyObservationToken(
        root.observe(\.title, options: [.initial, .new]) { _, change in handler(change.newValue) })
    }
    var link: KeyPath<Node, Node?> = \.next
    for _ in 2..<depth { link = link.appending(path: \Node?.?.next) }
    return AnyObservationToken(
      root.observe(link.appending(path: \Node?.?.title), options: [.initial, .new]) {
        _, change in handler(change.newValue ?? nil)
      })
  }

  var hasWeakNext: Bool { true }

  func setWeakNext(_ next: AnyObject?, of node: AnyObject) {
    (node as! Node).weakNext = next as? Node
  }

  func observeTitleThroughWeakNext(
    from root: AnyObject, _ handler: @escaping (String?) -> Void
  ) -> AnyObservationToken {
    AnyObservationToken(
      (root as! Node).observe(\.next?.weakNext?.title, options: [.initial, .new]) { _, change in
        handler(change.newValue ?? nil)
      })
  }

  func observerCount(on node: AnyObject) -> Int? {
    (node as? any KeyPathObservable)?.keyPathRegistrar.observerCount
  }
}
