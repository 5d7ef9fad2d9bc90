extension LinkedListObservers {
  /// One observer in the list.
  @usableFromInline
  internal final class _Node {
    @usableFromInline internal var handler: ((Value) -> Void)?
    @usableFromInline internal var next: _Node?
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
