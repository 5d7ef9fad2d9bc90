import ObservationCore

extension ArrayCopyObservers {
  /// Ends one observation of an ``ArrayCopyObservers``, explicitly or when released.
  ///
  /// The token does not keep the subject alive; cancelling after the subject is gone does
  /// nothing.
  public final class Token: ObservationToken {
    @usableFromInline internal let id: UInt64
    @usableFromInline internal weak var owner: ArrayCopyObservers?
    @usableFromInline internal var isCancelled = false

    @inlinable
    internal init(id: UInt64, owner: ArrayCopyObservers) {
      self.id = id
      self.owner = owner
    }

    deinit { cancel() }

    /// Removes the observer and releases its handler.
    ///
    /// - Complexity: O(log *n*) to find the entry plus O(*n*) to remove it, for *n* observers.
    @inlinable
    public func cancel() {
      guard !isCancelled else { return }
      isCancelled = true
      owner?._remove(id: id)
    }
  }
}
