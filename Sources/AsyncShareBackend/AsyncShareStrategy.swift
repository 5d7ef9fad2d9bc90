import ObservationCore
import RunLoopExecution

/// swift-async-algorithms' `share()` over one `AsyncStream` source, a task per observer:
/// ``SharedValue``.
public struct AsyncShareStrategy: ObservationBackend, Sendable {
  /// Creates the backend descriptor.
  public init() {}

  /// `async-share`.
  public var name: String { "async-share" }

  /// What the pattern gives, as the suite found it. A cancel cancels the observer's task, whose
  /// side leaves the share when it next asks for a value, so no later write reaches it, while a
  /// value already handed to the side may still arrive (`cancelsOnLaterTurn`).
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .asynchronousOrdered,
      [.deliversEveryValue, .cancelsOnTokenDeinit, .cancelsOnLaterTurn],
      maxReentrancyDepth: .unbounded)
  }

  /// A new ``SharedValue``.
  public func makeSubject(initialValue: Int) -> SharedValue<Int> { SharedValue(initialValue) }

  /// A new ``SharedValue`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    SharedValue(initialValue)
  }

  /// Runs the calling thread's loop, where the observers' tasks run, until `condition` holds,
  /// nothing more can arrive, or `timeout` passes; returns whether `condition` holds.
  ///
  /// Nothing more can arrive once every job of the observers' tasks has run here and every
  /// subject made on this thread has had each of its values handed on by `share()`'s task (a
  /// subject that has not keeps the executor from being idle): waiting out the timeout then (as
  /// a rule does when it checks that nothing arrives) would only cost time.
  @discardableResult
  public func awaitDelivery(until condition: () -> Bool, timeout: Duration) -> Bool {
    RunLoopExecutor.spin(untilIdleOr: condition, timeout: timeout)
  }

  /// Runs the calling thread's loop until nothing more can arrive, or `timeout` passes; returns
  /// whether nothing more can.
  @discardableResult
  public func awaitScheduledDeliveries(timeout: Duration) -> Bool {
    RunLoopExecutor.spinUntilIdle(timeout: timeout)
  }
}
