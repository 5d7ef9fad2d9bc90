extension OpaqueArrayCopyObservers {
  /// One observer: its registration number, the write it started after, and its handler
  /// (`nil` once cancelled during delivery).
  internal struct _Entry {
    internal let id: UInt64
    internal let startSequence: UInt64
    internal var handler: ((Value) -> Void)?
  }
}
