import ObservationCore

extension SynchronizedDenseObservers {
  /// Ends one observation of a ``SynchronizedDenseObservers``, explicitly or when released,
  /// from any thread.
  ///
  /// The token does not keep the subject alive; cancelling after the subject is gone, or
  /// twice, does nothing.
  public final class Token: ObservationToken, @unchecked Sendable {
    @usableFromInline internal let slot: UInt32
    @usableFromInline internal let generation: UInt32
    @usableFromInline internal weak let owner: SynchronizedDenseObservers?

    @inlinable
    internal init(slot: UInt32, generation: UInt32, owner: SynchronizedDenseObservers) {
      self.slot = slot
      self.generation = generation
      self.owner = owner
    }

    deinit { cancel() }

    /// Removes the observer and releases its handler. Once it returns, the observer is never
    /// called again, on any thread: if another thread is delivering and may still call it,
    /// this waits for that delivery's walk to end.
    ///
    /// - Complexity: O(1) amortized, plus that wait.
    @inlinable
    public func cancel() {
      owner?._cancel(slot: slot, generation: generation)
    }
  }
}
