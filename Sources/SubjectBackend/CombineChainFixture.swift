import ObservationCore
import OpenCombine

/// ``NestedChainFixture`` as Combine code writes it: `@Published` links followed with the
/// chosen ``CombineChain`` once per link, erased to `AnyPublisher` between links because the
/// depth is only known at run time.
final class CombineChainFixture: NestedChainFixture {
  final class Node: ObservableObject {
    @Published var title: String
    @Published var next: Node?
    init(title: String) { self.title = title }
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
    return AnyObservationToken(
      follow(link) { $0.$title.map { Optional.some($0) }.eraseToAnyPublisher() }
        .sink(receiveValue: handler))
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

extension PublishedChainStrategy {
  /// A chain of `ObservableObject` nodes followed with ``chain`` once per link.
  public func makeNestedChainFixture() -> any NestedChainFixture {
    CombineChainFixture(chain: chain)
  }
}
