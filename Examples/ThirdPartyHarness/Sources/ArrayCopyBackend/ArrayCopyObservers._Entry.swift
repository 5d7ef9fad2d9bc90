extension ArrayCopyObservers {
  /// One observer: its registration number, the write it started after, and its handler
  /// (`nil` once cancelled during delivery).
  @usableFromInline
  internal struct _Entry {
    @usableFromInline internal let id: UInt64
    @usableFromInline internal let startSequence: UInt64
    @usableFromInline internal var handler: ((Value) -> Void)?

    @inlinable
    internal init(id: UInt64, startSequence: UInt64, handler: ((Value) -> Void)?) {
      self.id = id
      self.startSequence = startSequence
      self.handler = handler
    }
  }
}
