import ObservationCore
import RunLoopExecution

/// Observatory's own asynchronous strategy: every observer iterates one shared
/// `AsyncBroadcast`, through a cursor of its own, in a task on the observing thread's run loop
/// (``BroadcastValue``).
public struct AsyncBroadcastStrategy: ObservationBackend, Sendable {
  /// Creates the backend descriptor.
  public init() {}

  /// `async-broadcast`.
  public var name: String { "async-broadcast" }

  /// Every value, in order, on a later turn of the observing thread's loop; a cancel clears
  /// the handler at once, so nothing reaches it after the cancel returns, even a value whose
  /// task was already resumed.
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .asynchronousOrdered,
      [.deliversEveryValue, .cancelsOnTokenDeinit, .immediateCancellation],
      maxReentrancyDepth: .unbounded)
  }

  /// A new ``BroadcastValue``.
  public func makeSubject(initialValue: Int) -> BroadcastValue<Int> {
    BroadcastValue(initialValue)
  }

  /// A new ``BroadcastValue`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    BroadcastValue(initialValue)
  }

  /// Runs the calling thread's run loop, where the observers' tasks run, until `condition`
  /// holds, every job of those tasks has run, or `timeout` passes; returns whether `condition`
  /// holds.
  ///
  /// A send resumes the waiting observers' tasks before it returns, each a job on this
  /// thread's executor, so once none is left nothing more arrives until the caller acts again.
  @discardableResult
  public func awaitDelivery(until condition: () -> Bool, timeout: Duration) -> Bool {
    RunLoopExecutor.spin(untilIdleOr: condition, timeout: timeout)
  }

  /// Runs the calling thread's run loop until the jobs of its observers' tasks have all run, or
  /// `timeout` passes; returns whether none is left.
  @discardableResult
  public func awaitScheduledDeliveries(timeout: Duration) -> Bool {
    RunLoopExecutor.spinUntilIdle(timeout: timeout)
  }
}
