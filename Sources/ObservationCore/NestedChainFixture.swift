/// A path of any depth for the harness's `nested` workload: nodes linked through an observable
/// `next`, each with an observable `title`, observed as `root.next?.next?…?.title`.
///
/// Depth counts the properties the path reads: `root.title` is depth 1,
/// `root.next?.next?.title` is depth 3 (the shape of `controller?.player?.title`). Objects are
/// handed around as `AnyObject`, as in ``NestedObservationFixture``.
public protocol NestedChainFixture: AnyObject {
  /// A new node with no next node and the title `title`.
  func makeNode(title: String) -> AnyObject
  /// Sets `node.next`.
  func setNext(_ next: AnyObject?, of node: AnyObject)
  /// Sets `node.title`.
  func setTitle(_ title: String, of node: AnyObject)
  /// Observes the title `depth - 1` links below `root`: the handler is called with the current
  /// leaf (`nil` where a link is missing), then once per change.
  ///
  /// - Precondition: `depth >= 1`.
  func observeTitle(
    depth: Int, from root: AnyObject, _ handler: @escaping (String?) -> Void
  ) -> AnyObservationToken
}

extension ObservationBackend {
  /// The backend's own chain fixture if it has nested observation of its own, else one built
  /// from its subjects; `nil` if neither exists.
  public func makeAnyNestedChainFixture() -> (any NestedChainFixture)? {
    if let native = self as? any NestedObservationBackend { return native.makeNestedChainFixture() }
    return SubjectChainFixture(backend: self)
  }
}
