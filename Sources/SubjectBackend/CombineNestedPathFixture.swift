import ObservationCore
import ObservationFixtures
import OpenCombine

/// ``NestedPathFixture`` as Combine code writes it: `@Published` links followed with the chosen
/// ``CombineChain`` once per link, erased to `AnyPublisher` between links because the depth is
/// only known at run time.
///
/// `@Published` cannot wrap a `weak var`, so `weakNext` is a `@Published` value holding the next
/// node weakly, as Combine code does.
final class CombineNestedPathFixture: NestedPathFixture {
  final class Node: ObservableObject {
    @Published var title: String
    @Published var next: Node?
    @Published var weakNext = WeakNode()
    init(title: String) { self.title = title }
  }

  /// A weak reference as a value, for a `@Published` property that must not keep its node alive.
  struct WeakNode {
    weak var node: Node?
  }

  let chain: CombineChain

  init(chain: CombineChain) { self.chain = chain }

  func makeNode(title: String) -> AnyObject { Node(title: title) }
  func setNext(_ next: AnyObject?, of node: AnyObject) { (node as! Node).next = next as? Node }
  func setTitle(_ title: String, of node: AnyObject) { (node as! Node).title = title }

  func observeTitle(
    depth: Int, from root: AnyObject, _ handler: @escaping (String?) -> Void
  ) -> AnyObservationToken {
    precondition(depth >= 1, "depth must be at least 1")
    let root = root as! Node
    guard depth > 1 else { return AnyObservationToken(root.$title.sink { handler($0) }) }
    var link = root.$next.eraseToAnyPublisher()
    for _ in 2..<depth {
      link = follow(link) { $0.$next.eraseToAnyPublisher() }
    }
    return AnyObservationToken(title(below: link).sink(receiveValue: handler))
  }

  var hasWeakNext: Bool { true }

  func setWeakNext(_ next: AnyObject?, of node: AnyObject) {
    (node as! Node).weakNext = WeakNode(node: next as? Node)
  }

  func observeTitleThroughWeakNext(
    from root: AnyObject, _ handler: @escaping (String?) -> Void
  ) -> AnyObservationToken {
    let link = follow((root as! Node).$next.eraseToAnyPublisher()) {
      $0.$weakNext.map(\.node).eraseToAnyPublisher()
    }
    return AnyObservationToken(title(below: link).sink(receiveValue: handler))
  }

  /// Combine does not expose how many subscribers a `@Published` property has.
  func observerCount(on node: AnyObject) -> Int? { nil }

  /// The last link: the title of each node, `nil` where there is none.
  private func title(below link: AnyPublisher<Node?, Never>) -> AnyPublisher<String?, Never> {
    follow(link) { $0.$title.map { Optional.some($0) }.eraseToAnyPublisher() }
  }

  /// One link: the inner publisher of each outer node, `nil` where there is none.
  private func follow<Inner>(
    _ outer: AnyPublisher<Node?, Never>,
    _ inner: @escaping (Node) -> AnyPublisher<Inner?, Never>
  ) -> AnyPublisher<Inner?, Never> {
    let select = { (node: Node?) -> AnyPublisher<Inner?, Never> in
      node.map(inner) ?? Just(nil).eraseToAnyPublisher()
    }
    switch chain {
    case .flatMap: return outer.flatMap(select).eraseToAnyPublisher()
    case .switchToLatest: return outer.map(select).switchToLatest().eraseToAnyPublisher()
    }
  }
}
