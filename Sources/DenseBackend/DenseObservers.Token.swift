import ObservationCore

extension DenseObservers {
  /// Ends one observation of a ``DenseObservers``, explicitly or when released.
  ///
  /// The token does not keep the subject alive; cancelling after the subject is gone, or
  /// twice, does nothing.
  public final class Token: ObservationToken {
    @usableFromInline internal let slot: UInt32
    @usableFromInline internal let generation: UInt32
    @usableFromInline internal weak let owner: DenseObservers?

    @inlinable
    internal init(slot: UInt32, generation: UInt32, owner: DenseObservers) {
      self.slot = slot
      self.generation = generation
      self.owner = owner
    }

    deinit { cancel() }

    /// Removes the observer and releases its handler.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    public func cancel() {
      owner?._cancel(slot: slot, generation: generation)
    }
  }
}
