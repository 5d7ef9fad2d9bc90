import Observation
import ObservationCore
import RunLoopExecution

/// An `@Observable` object holding one value, observed with the `Observations` async sequence.
///
/// Each observer is a task iterating `Observations { object.value }` in the observing thread's
/// run loop (see ``SwiftObservationsStrategy``): delivery is asynchronous and transactional, and
/// the writes one synchronous block makes on that thread arrive as one element, the final value.
/// The first element is the value current when the task starts. Not thread-safe.
@Observable
public final class ObservedValue<Value>: ObservableValue {
  /// The tracked property.
  public var value: Value

  /// Creates an object holding `initialValue`.
  public init(_ initialValue: Value) { value = initialValue }

  /// `true`: the first element, the current value, arrives when the thread's run loop runs.
  public var replaysLater: Bool { true }

  /// Starts a task that iterates `Observations { self.value }` on the calling thread's run loop
  /// and calls `handler` with each element.
  ///
  /// - Complexity: O(1) to start; the first element arrives when the thread's run loop runs.
  public func observe(_ handler: @escaping (Value) -> Void) -> ObservedValueToken {
    observeChanges({ [self] in self.value }, handler: handler)
  }
}

/// Observes `read` with a task iterating `Observations { read() }` on the calling thread's run
/// loop, calling `handler` with each element until the token is cancelled or released.
func observeChanges<Element>(
  _ read: @escaping () -> Element, handler: @escaping (Element) -> Void
) -> ObservedValueToken {
  let registration = ObservedValueRegistration(handler: handler)
  let isolation = RunLoopIsolation()
  let reader = UncheckedSendable { UncheckedSendable(read()) }
  // Started immediately, the task's first step runs here and hands the iteration to the run loop
  // at once, so observers start in the order they were registered.
  let task = Task.immediate(executorPreference: RunLoopExecutor.current) {
    await isolation.iterate({ reader.value() }) { element in
      guard let handler = registration.handler else { return false }
      handler(element.value)
      return true
    }
  }
  return ObservedValueToken(registration: registration, task: task)
}
