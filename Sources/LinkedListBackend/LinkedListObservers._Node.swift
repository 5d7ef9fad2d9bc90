extension LinkedListObservers {
  /// One observer in the list.
  @usableFromInline
  internal final class _Node {
    @usableFromInline internal var handler: ((Value) -> Void)?
    @usableFromInline internal var next: _Node?
    /// The node before this one. `unowned(unsafe)`: that node owns this one through its
    /// `next`, so it outlives every read of this back-pointer; a strong or weak reference would
    /// add reference counting (or a side table) to every append and removal.
    @usableFromInline internal unowned(unsafe) var previous: _Node?
    @usableFromInline internal let startSequence: UInt64
    @usableFromInline internal var isLinked = true

    @inlinable
    internal init(handler: @escaping (Value) -> Void, startSequence: UInt64) {
      self.handler = handler
      self.startSequence = startSequence
    }
  }
}
