import ObservationCore

extension LinkedListObservers {
  /// Ends one observation of a ``LinkedListObservers``, explicitly or when released.
  ///
  /// The token does not keep the subject alive; cancelling after the subject is gone does
  /// nothing.
  public final class Token: ObservationToken {
    @usableFromInline internal var node: _Node?
    @usableFromInline internal weak var owner: LinkedListObservers?

    @inlinable
    internal init(node: _Node, owner: LinkedListObservers) {
      self.node = node
      self.owner = owner
    }

    deinit { cancel() }

    /// Unlinks the observer and releases its handler.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func cancel() {
      guard let node else { return }
      self.node = nil
      if let owner {
        owner._remove(node)
      } else {
        let released = node.handler.take()
        _ = consume released
      }
    }
  }
}
