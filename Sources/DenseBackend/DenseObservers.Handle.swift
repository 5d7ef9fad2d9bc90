extension DenseObservers {
  /// Names one observation of a ``DenseObservers`` made with ``DenseObservers/addObserver(_:)``:
  /// a slot and the generation it had, eight bytes and no allocation.
  ///
  /// Unlike ``Token``, a handle is a value: copying it copies the name, and releasing it ends
  /// nothing. The observation lasts until ``DenseObservers/removeObserver(_:)``. A handle of a
  /// removed observation matches nothing, even after its slot is reused: the slot's generation
  /// has moved on.
  public struct Handle: Hashable, Sendable {
    /// The slot, which never moves while the observation lasts.
    @usableFromInline internal let slot: UInt32
    /// The slot's generation when the observation began (odd).
    @usableFromInline internal let generation: UInt32

    @inlinable
    internal init(slot: UInt32, generation: UInt32) {
      self.slot = slot
      self.generation = generation
    }
  }
}
