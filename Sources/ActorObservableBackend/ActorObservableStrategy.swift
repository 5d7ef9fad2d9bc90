import ObservationCore
import RunLoopExecution

/// A subject isolated to an actor of its own, observers registered and notified through isolated
/// calls: ``ActorObservableValue``.
public struct ActorObservableStrategy: ObservationBackend, Sendable {
  /// Creates the backend descriptor.
  public init() {}

  /// `actor-observable`.
  public var name: String { "actor-observable" }

  /// What the pattern gives, as the suite found it.
  ///
  /// Every write is delivered, in write order, when the actor's run loop runs it
  /// (`asynchronousOrdered`, `deliversEveryValue`). Any thread may write, observe and cancel:
  /// each call becomes an isolated call enqueued on the actor's executor, whose queue is behind
  /// a lock (`threadSafe`). Handlers run only in the actor, on its one serial executor, so they
  /// never overlap (`serializedDelivery`); a write made inside a handler is one more isolated
  /// call, queued behind the delivery that made it, so nested writes never reorder values and
  /// never grow the stack (`preservesValueOrderUnderReentrancy`, unbounded depth). Releasing
  /// the token sends the removal as `cancel()` does (`cancelsOnTokenDeinit`). The removal is an
  /// isolated call too, run in the actor's turn behind the writes sent before it: they may
  /// still reach the observer after `cancel()` returned, a write made after it never does
  /// (`cancelsOnLaterTurn`).
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .asynchronousOrdered,
      [
        .deliversEveryValue, .cancelsOnTokenDeinit, .cancelsOnLaterTurn, .threadSafe,
        .serializedDelivery,
        .preservesValueOrderUnderReentrancy,
      ],
      maxReentrancyDepth: .unbounded)
  }

  /// A new ``ActorObservableValue``.
  public func makeSubject(initialValue: Int) -> ActorObservableValue<Int> {
    ActorObservableValue(initialValue)
  }

  /// A new ``ActorObservableValue`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    ActorObservableValue(initialValue)
  }

  /// Runs the calling thread's run loop, where its subjects' actors run, until `condition`
  /// holds, every job of that loop has run, or `timeout` passes; returns whether `condition`
  /// holds.
  ///
  /// Every delivery of an ``ActorObservableValue`` is a job of its actor on this thread's executor,
  /// so once none is left nothing more arrives until the caller, or another thread, acts again:
  /// writes that other threads have yet to make are not waited for.
  @discardableResult
  public func awaitDelivery(until condition: () -> Bool, timeout: Duration) -> Bool {
    RunLoopExecutor.spin(untilIdleOr: condition, timeout: timeout)
  }

  /// Runs the calling thread's run loop until the jobs of its subjects' actors have all run, or
  /// `timeout` passes; returns whether none is left.
  @discardableResult
  public func awaitScheduledDeliveries(timeout: Duration) -> Bool {
    RunLoopExecutor.spinUntilIdle(timeout: timeout)
  }
}
