import ObservationCore

extension OpaqueArrayCopyObservers {
  /// Ends one observation of an ``OpaqueArrayCopyObservers``, explicitly or when released.
  ///
  /// The token does not keep the subject alive; cancelling after the subject is gone does
  /// nothing.
  public final class Token: ObservationToken {
    internal let id: UInt64
    internal weak var owner: OpaqueArrayCopyObservers?
    internal var isCancelled = false

    internal init(id: UInt64, owner: OpaqueArrayCopyObservers) {
      self.id = id
      self.owner = owner
    }

    deinit { cancel() }

    /// Removes the observer and releases its handler.
    ///
    /// - Complexity: O(log *n*) to find the entry plus O(*n*) to remove it, for *n* observers.
    public func cancel() {
      guard !isCancelled else { return }
      isCancelled = true
      owner?._remove(id: id)
    }
  }
}
