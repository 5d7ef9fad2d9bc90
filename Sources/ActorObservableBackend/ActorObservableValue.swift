import Foundation
import ObservationCore
import RunLoopExecution

/// A value held by an actor of its own, observed through isolated calls: the way an app writes
/// a subject with Swift concurrency.
///
/// The actor (its state isolated to the run loop of the thread that made the value) keeps the
/// value and a dictionary of handlers keyed by a `UUID`; `set`, `register` and `remove` are its
/// isolated methods. This synchronous facade calls them with
/// `Task.immediate(executorPreference:)`: each call starts a task on the calling thread that
/// enqueues the isolated call on the actor's executor before the facade returns, so the calls one
/// thread makes reach the actor in the order it made them. Handlers run when that thread's run
/// loop runs the actor, never inside the setter, in no particular order among themselves.
///
/// ``value`` reads the last value written, by any thread, not the value the actor has delivered
/// so far: a write can be read back at once, including inside a handler, and when every pending
/// delivery has run, every observer's last value is the value read. Two writes made at the same
/// moment on two threads may be stored in one order and enqueued in the other.
///
/// ```swift
/// let title = ActorObservableValue("")
/// let token = title.observe { print($0) }
/// title.value = "Intro"   // printed when the thread's run loop next runs
/// ```
public final class ActorObservableValue<Value>: ObservableValue {
  private let subject: IsolatedSubject<Value>
  private let executor: RunLoopExecutor
  /// Behind a pthread mutex rather than a `Mutex`, whose contended waits the thread sanitizer
  /// cannot see on Linux.
  private let lastWritten: PthreadMutex<UncheckedSendable<Value>>

  /// Creates a value holding `initialValue`, isolated to the calling thread's run loop, with no
  /// observers.
  public init(_ initialValue: Value) {
    executor = RunLoopExecutor.current
    subject = IsolatedSubject(UncheckedSendable(initialValue), executor: executor)
    lastWritten = PthreadMutex(UncheckedSendable(initialValue))
  }

  /// The last value written; setting it sends the value to the actor, which calls every
  /// observer with it when its run loop next runs.
  ///
  /// - Complexity: O(1) to write; the delivery, O(*n*) for *n* observers, runs later.
  public var value: Value {
    get { lastWritten.withLock { $0 }.value }
    set {
      let written = UncheckedSendable(newValue)
      lastWritten.withLock { $0 = written }
      Task.immediate(executorPreference: executor) { [subject] in
        await subject.set(written)
      }
    }
  }

  /// Sends `handler` to the actor to be registered; the current value is not sent.
  ///
  /// - Complexity: O(1) to send; the registration runs when the actor's run loop runs.
  public func observe(_ handler: @escaping (Value) -> Void) -> ActorObservableValueToken {
    let id = UUID()
    let registered = UncheckedSendable(handler)
    Task.immediate(executorPreference: executor) { [subject] in
      await subject.register(id, registered)
    }
    return ActorObservableValueToken(id: id, subject: subject, executor: executor)
  }
}
