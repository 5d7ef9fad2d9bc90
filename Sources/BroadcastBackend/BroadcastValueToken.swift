import AsyncBroadcast
import ObservationCore

/// Ends a ``BroadcastValue`` observer: clears its handler, so that it is never called again and
/// what it captured is released, and cancels its task, which ends its consumer of the broadcast.
/// Releasing the token ends it too.
public final class BroadcastValueToken: ObservationToken {
  @usableFromInline var end: (() -> Void)?

  @inlinable
  init<Value>(
    observer: BroadcastObserver<Value>, in observers: BroadcastObservers<Value>,
    task: Task<Void, Never>
  ) {
    end = {
      observer.releaseHandler()
      observers.remove(observer)
      task.cancel()
    }
  }

  deinit { cancel() }

  /// Ends the observer; a second call does nothing.
  ///
  /// - Complexity: O(1): the broadcast ends the consumer without looking at any other.
  public func cancel() {
    end?()
    end = nil
  }
}
