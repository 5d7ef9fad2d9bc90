import Foundation
import RunLoopExecution

/// The subject itself: an actor holding the value and its observers' handlers, changed only by
/// isolated calls, on the run loop of the thread that made it.
///
/// Its executor is that thread's ``RunLoopExecutor``, not the global pool: on the pool, the
/// actor would call its handlers on whichever pool thread ran it, a thread the caller can
/// neither wait on nor order with its own work. With a loop of its own, the arrangement is the
/// main actor's in an app: isolated code, handlers included, runs when the owning thread returns
/// to its loop, in the order the calls were enqueued.
actor IsolatedSubject<Value> {
  private nonisolated let executor: RunLoopExecutor
  private var value: Value
  private var handlers: [UUID: (Value) -> Void] = [:]

  /// A subject holding `initialValue`, isolated to `executor`.
  init(_ initialValue: UncheckedSendable<Value>, executor: RunLoopExecutor) {
    self.executor = executor
    value = initialValue.value
  }

  /// The run loop executor of the thread that made the subject.
  nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// Stores `written` and calls every registered handler with it.
  ///
  /// - Complexity: O(*n*) for *n* handlers.
  func set(_ written: UncheckedSendable<Value>) {
    value = written.value
    for handler in handlers.values { handler(written.value) }
  }

  /// Adds `handler` under `id`; the current value is not sent.
  ///
  /// - Complexity: O(1) amortized.
  func register(_ id: UUID, _ handler: UncheckedSendable<(Value) -> Void>) {
    handlers[id] = handler.value
  }

  /// Removes the handler registered under `id`, if there is one.
  ///
  /// - Complexity: O(1).
  func remove(_ id: UUID) {
    handlers.removeValue(forKey: id)
  }
}
