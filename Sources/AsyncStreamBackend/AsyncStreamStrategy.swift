import ObservationCore
import RunLoopExecution

/// One `AsyncStream` per observer, fed by its continuation and consumed by a task of its own:
/// ``StreamedValue``.
public struct AsyncStreamStrategy: ObservationBackend, Sendable {
  /// Creates the backend descriptor.
  public init() {}

  /// `async-stream`.
  public var name: String { "async-stream" }

  /// What the pattern gives, as the suite found it. A cancel finishes the observer's stream at
  /// once, so no later write reaches it, while the values its task has not taken yet may still
  /// arrive (`cancelsOnLaterTurn`).
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .asynchronousOrdered,
      [.deliversEveryValue, .cancelsOnTokenDeinit, .cancelsOnLaterTurn],
      maxReentrancyDepth: .unbounded)
  }

  /// A new ``StreamedValue``.
  public func makeSubject(initialValue: Int) -> StreamedValue<Int> { StreamedValue(initialValue) }

  /// A new ``StreamedValue`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    StreamedValue(initialValue)
  }

  /// Runs the calling thread's run loop, where the observers' tasks run, until `condition`
  /// holds, every job of those tasks has run, or `timeout` passes; returns whether `condition`
  /// holds.
  ///
  /// Every delivery of a ``StreamedValue`` is a job of an observing task on this thread's
  /// executor, so once none is left nothing more arrives until the caller acts again: waiting
  /// out the timeout then (as a rule does when it checks that nothing arrives) would only cost
  /// time, 10 s a wait.
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
