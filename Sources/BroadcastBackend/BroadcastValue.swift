import AsyncBroadcast
import ObservationCore
import RunLoopExecution

/// A value whose observers each iterate one shared `AsyncBroadcast`, in a task of their own on
/// the observing thread's run loop: Observatory's own asynchronous strategy.
///
/// The setter stores, then sends the new value to the broadcast, which keeps it once for every
/// observer and resumes each observer's task that waits for a value; each task calls its
/// handler with each value, in order, on the thread's run loop (the part the main actor plays
/// in an app). `observe` makes the observer's iterator before it returns, so the observer gets
/// every value set from then on. Cancelling clears the handler at once (it is never called
/// again, and what it captured is released) and cancels the task, which ends the observer in the
/// broadcast without looking at any other observer. Not thread-safe, as the main-actor model it
/// stands for is not; the broadcast itself is.
///
/// ```swift
/// let title = BroadcastValue("")
/// let token = title.observe { print($0) }
/// title.value = "Intro"   // printed when the thread's run loop next runs
/// ```
public final class BroadcastValue<Value>: ObservableValue {
  @usableFromInline let broadcast = AsyncBroadcast<Carried<Value>>()
  /// The live observers, so that the subject's end releases their handlers at once, before
  /// their tasks next run.
  @usableFromInline let observers = BroadcastObservers<Value>()
  @usableFromInline var stored: Value

  /// The current value; setting it sends the new value to every observer.
  ///
  /// - Complexity: O(*w*) for *w* observers waiting for a value (one resumption each); the
  ///   value is stored once, however many observers there are.
  @inlinable
  public var value: Value {
    get { stored }
    set {
      stored = newValue
      broadcast.send(Carried(newValue))
    }
  }

  /// Creates a value holding `initialValue`, with no observers.
  public init(_ initialValue: Value) { stored = initialValue }

  deinit {
    // What the handlers captured goes with the subject, though tokens may outlive it; the
    // broadcast then finishes, and each task ends when the loop next runs it.
    observers.releaseAll()
  }

  /// Makes `handler`'s consumer of the broadcast and starts the task that iterates it on the
  /// calling thread's run loop; the current value is not sent, and `handler` is never called
  /// before `observe` returns.
  ///
  /// - Complexity: O(1) amortized, plus starting the task.
  @inlinable
  public func observe(_ handler: @escaping (Value) -> Void) -> BroadcastValueToken {
    let observer = BroadcastObserver(handler, broadcast.makeAsyncIterator())
    observers.add(observer)
    // Started immediately, the task's first step runs here and waits for the first value, so
    // observers wait in the order they were registered. Its every later step runs on its
    // preferred executor, this thread's loop, with no actor to hop to: the handler runs there,
    // as the asynchronous floor's tasks do.
    let task = Task.immediate(executorPreference: RunLoopExecutor.current) {
      await deliver(to: observer)
    }
    return BroadcastValueToken(observer: observer, in: observers, task: task)
  }
}

/// A value as it travels through the broadcast, which needs `Sendable` elements. It never leaves
/// the observing thread: the broadcast only holds it.
@usableFromInline
struct Carried<Value>: @unchecked Sendable {
  @usableFromInline let value: Value
  @inlinable init(_ value: Value) { self.value = value }
}

/// One observer: its handler, until it is cancelled, and its consumer of the broadcast. Used
/// only on the observing thread (its task runs there, and so does its token's `cancel`).
@usableFromInline
final class BroadcastObserver<Value>: @unchecked Sendable {
  @usableFromInline var handler: ((Value) -> Void)?
  @usableFromInline var iterator: AsyncBroadcast<Carried<Value>>.Iterator?
  /// Its place in its subject's ``BroadcastObservers``; `nil` once it has left.
  @usableFromInline var slot: Int?

  @inlinable
  init(_ handler: @escaping (Value) -> Void, _ iterator: AsyncBroadcast<Carried<Value>>.Iterator) {
    self.handler = handler
    self.iterator = iterator
  }

  /// Clears the handler, releasing it (and what it captured, a token of this very observer
  /// among them) only once `handler` is no longer being written.
  @inlinable
  func releaseHandler() {
    let released = handler
    handler = nil
    withExtendedLifetime(released) {}
  }
}

/// Calls `observer`'s handler with each value of its consumer until the broadcast finishes,
/// the task is cancelled or the handler is cleared; then releases both. Nonisolated: it runs on
/// the executor its task prefers, the observing thread's loop.
@inlinable
func deliver<Value>(to observer: BroadcastObserver<Value>) async {
  guard var iterator = observer.iterator else { return }
  while let carried = await iterator.next(isolation: nil) {
    guard let handler = observer.handler else { break }
    handler(carried.value)
  }
  observer.releaseHandler()
  observer.iterator = nil
}

/// A subject's live observers, in slots reused after a cancel: adding and removing one are O(1)
/// amortized, and the subject's end releases every handler in O(*n*). Used only on the
/// observing thread.
@usableFromInline
final class BroadcastObservers<Value>: @unchecked Sendable {
  @usableFromInline var slots: [BroadcastObserver<Value>?] = []
  @usableFromInline var freeSlots: [Int] = []

  @usableFromInline init() {}

  @inlinable
  func add(_ observer: BroadcastObserver<Value>) {
    if let slot = freeSlots.popLast() {
      slots[slot] = observer
      observer.slot = slot
    } else {
      observer.slot = slots.count
      slots.append(observer)
    }
  }

  @inlinable
  func remove(_ observer: BroadcastObserver<Value>) {
    guard let slot = observer.slot else { return }
    slots[slot] = nil
    freeSlots.append(slot)
    observer.slot = nil
  }

  func releaseAll() {
    for observer in slots {
      observer?.slot = nil
      observer?.releaseHandler()
    }
    slots.removeAll()
    freeSlots.removeAll()
  }
}
