import ObservationCore

extension DenseObservers {
  /// Ends one observation of a ``DenseObservers``, explicitly or when released.
  ///
  /// The token does not keep the subject alive; cancelling after the subject is gone, or
  /// twice, does nothing.
  public final class Token: ObservationToken {
    @usableFromInline internal let handle: Handle
    @usableFromInline internal weak let owner: DenseObservers?

    @inlinable
    internal init(_ handle: Handle, owner: DenseObservers) {
      self.handle = handle
      self.owner = owner
    }

    deinit { cancel() }

    /// Removes the observer and releases its handler.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    public func cancel() {
      owner?._cancel(slot: handle.slot, generation: handle.generation)
    }
  }
}
