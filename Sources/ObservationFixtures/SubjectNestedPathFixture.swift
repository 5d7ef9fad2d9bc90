import ObservationCore

/// ``NestedPathFixture`` from any backend's subjects, followed with
/// `AnyObservable/flatMapLatest(_:)` once per link: how the KP rules and the `nested` workload
/// run on backends without nested observation of their own.
///
/// Each node is three subjects: `title`, `next`, and `weakNext`, a subject whose value holds
/// the next node weakly, so nothing writes to it when that node deallocates.
public final class SubjectNestedPathFixture: NestedPathFixture {
  final class Node {
    let title: any ObservableValue<String>
    let next: any ObservableValue<Node?>
    let weakNext: any ObservableValue<WeakNode>
    init(
      title: any ObservableValue<String>, next: any ObservableValue<Node?>,
      weakNext: any ObservableValue<WeakNode>
    ) {
      self.title = title
      self.next = next
      self.weakNext = weakNext
    }
  }

  /// A weak reference as a value, for a subject that must not keep its node alive.
  struct WeakNode {
    weak var node: Node?
  }

  let backend: any ObservationBackend

  /// A fixture of `backend`'s subjects, or `nil` when the backend offers only `Int` subjects.
  public init?(backend: any ObservationBackend) {
    guard backend.makeSubject(of: Node?.self, initialValue: nil) != nil else { return nil }
    self.backend = backend
  }

  /// See ``NestedPathFixture``.
  ///
  /// - Complexity: makes three subjects.
  public func makeNode(title: String) -> AnyObject {
    Node(
      title: backend.makeSubject(of: String.self, initialValue: title)!,
      next: backend.makeSubject(of: Node?.self, initialValue: nil)!,
      weakNext: backend.makeSubject(of: WeakNode.self, initialValue: WeakNode())!)
  }

  /// See ``NestedPathFixture``.
  public func setNext(_ next: AnyObject?, of node: AnyObject) {
    (node as! Node).next.value = next as? Node
  }

  /// See ``NestedPathFixture``.
  public func setTitle(_ title: String, of node: AnyObject) {
    (node as! Node).title.value = title
  }

  /// See ``NestedPathFixture``.
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

  /// `true`: every node has a `weakNext` subject.
  public var hasWeakNext: Bool { true }

  /// See ``NestedPathFixture``.
  public func setWeakNext(_ next: AnyObject?, of node: AnyObject) {
    (node as! Node).weakNext.value = WeakNode(node: next as? Node)
  }

  /// See ``NestedPathFixture``.
  public func observeTitleThroughWeakNext(
    from root: AnyObject, _ handler: @escaping (String?) -> Void
  ) -> AnyObservationToken {
    AnyObservable((root as! Node).next)
      .flatMapLatest { $0.map { AnyObservable($0.weakNext) } }
      .flatMapLatest { (weak: WeakNode?) -> AnyObservable<String>? in
        guard let node = weak?.node else { return nil }
        return AnyObservable(node.title)
      }
      .observe { handler($0 ?? nil) }
  }

  /// The registrations on the node's three subjects, if they all count theirs
  /// (`ObserverCounting`).
  public func observerCount(on node: AnyObject) -> Int? {
    guard let node = node as? Node else { return nil }
    var total = 0
    for subject in [node.title, node.next, node.weakNext] as [AnyObject] {
      guard let counting = subject as? any ObserverCounting else { return nil }
      total += counting.observerCount
    }
    return total
  }

  /// `Node??` as `Node?`: a missing link and a link to nothing are the same to the path.
  private static func flattened(_ link: AnyObservable<Node??>) -> AnyObservable<Node?> {
    AnyObservable<Node?>(
      value: { link.value ?? nil },
      observe: { handler in link.observe { handler($0 ?? nil) } },
      replaysLater: link.replaysLater)
  }
}
