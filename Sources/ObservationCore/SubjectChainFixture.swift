/// ``NestedChainFixture`` from any backend's subjects, followed with
/// ``AnyObservable/flatMapLatest(_:)`` once per link.
public final class SubjectChainFixture: NestedChainFixture {
  final class Node {
    let title: any ObservableValue<String>
    let next: any ObservableValue<Node?>
    init(title: any ObservableValue<String>, next: any ObservableValue<Node?>) {
      self.title = title
      self.next = next
    }
  }

  let backend: any ObservationBackend

  /// A fixture of `backend`'s subjects, or `nil` when the backend offers only `Int` subjects.
  public init?(backend: any ObservationBackend) {
    guard backend.makeSubject(of: Node?.self, initialValue: nil) != nil else { return nil }
    self.backend = backend
  }

  /// See ``NestedChainFixture``.
  public func makeNode(title: String) -> AnyObject {
    Node(
      title: backend.makeSubject(of: String.self, initialValue: title)!,
      next: backend.makeSubject(of: Node?.self, initialValue: nil)!)
  }

  /// See ``NestedChainFixture``.
  public func setNext(_ next: AnyObject?, of node: AnyObject) {
    (node as! Node).next.value = next as? Node
  }

  /// See ``NestedChainFixture``.
  public func setTitle(_ title: String, of node: AnyObject) {
    (node as! Node).title.value = title
  }

  /// See ``NestedChainFixture``.
  ///
  /// - Complexity: one `flatMapLatest` per link.
  public func observeTitle(
    depth: Int, from root: AnyObject, _ handler: @escaping (String?) -> Void
  ) -> AnyObservationToken {
    precondition(depth >= 1, "depth must be at least 1")
    let root = root as! Node
    guard depth > 1 else { return AnyObservable(root.title).observe { handler($0) } }
    var link = AnyObservable(root.next)
    for _ in 2..<depth {
      link = Self.flattened(link.flatMapLatest { $0.map { AnyObservable($0.next) } })
    }
    return link.flatMapLatest { $0.map { AnyObservable($0.title) } }.observe { handler($0) }
  }

  /// `Node??` as `Node?`: a missing link and a link to nothing are the same to the path.
  private static func flattened(_ link: AnyObservable<Node??>) -> AnyObservable<Node?> {
    AnyObservable<Node?>(
      get: { link.value ?? nil },
      observe: { handler in link.observe { handler($0 ?? nil) } },
      replaysLater: link.replaysLater)
  }
}
