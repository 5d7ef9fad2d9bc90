import AsyncAlgorithms
import ObservationCore
import RunLoopExecution

/// A value broadcast to its observers through swift-async-algorithms' `share()`: one
/// `AsyncStream` source, shared, and a task per observer iterating the shared sequence.
///
/// Written the way a careful app writes it: the setter stores, then yields the new value to the
/// source's continuation; `observe` makes an iterator of the shared sequence (a side of the
/// share) and starts a task, on the observing thread's loop (the part the main actor plays in
/// an app), that iterates it and calls the handler with each element; the token cancels that
/// task. Made inside the task instead, as `Task { for await value in shared { ... } }` makes
/// it, the side would miss every value set before the task first runs. Both the source and the share buffer without bound
/// (`.unbounded`), so a slow observer still sees every value, late. `share()` iterates the
/// source in a task of its own, on the global concurrent executor, and resumes each observer's
/// task from there. Not thread-safe, as the main-actor model it stands for is not.
///
/// Because `share()`'s task runs on another thread, whether it has handed a value on when the
/// observing thread's next statement runs depends on which thread runs first, and so would the
/// outcome of a rule that cancels or observes right after a write. The adapter pins one
/// interleaving: the setter (after it yields), `observe` (before it makes its side and after
/// the side first waits) and the token's `cancel` (before it cancels) wait, spinning, until
/// `share()`'s task has handed on everything it can without the observing thread (every side
/// that was waiting has been resumed, its task's next step queued on the observing thread's
/// loop, or the task has asked the source for a value not yet yielded), or 30 s pass. The suite
/// therefore sees the interleaving in which `share()`'s task hands each value on before the
/// app's next statement, which an app meets whenever that task runs first: every failure it
/// reports is a behaviour an app can meet. A rule that passes may still fail in an app in the
/// other interleaving (a cancel that reaches `share()` before the value does, say). One
/// exception: when `share()`'s task resumes a new side before that side's task has suspended,
/// the task would go on inside `observe` and call the handler there; it goes to the loop
/// first, so `observe` never calls the handler (an app's `Task.immediate` can, now and then).
///
/// ```swift
/// let title = SharedValue("")
/// let token = title.observe { print($0) }
/// title.value = "Intro"   // printed when the thread's loop next runs
/// ```
public final class SharedValue<Value>: ObservableValue {
  private let source: AsyncStream<Element<Value>>.Continuation
  /// Starts an observer's task over the shared sequence, whose concrete type only this closure
  /// knows.
  private let startObserver: (@escaping (Value) -> Void) -> SharedValueToken
  /// How far the values yielded have gone.
  private let progress: DeliveryProgress

  /// The current value; setting it yields the new value to the shared source, then waits until
  /// `share()`'s task has handed it to every observer that was waiting for one.
  ///
  /// - Complexity: O(1) here, then the wait while `share()` resumes each of the *n* waiting
  ///   observers' tasks.
  public var value: Value {
    didSet {
      progress.valueYielded()
      source.yield(Element(value))
      progress.awaitHandOff()
    }
  }

  /// Creates a value holding `initialValue`, with no observers.
  public init(_ initialValue: Value) {
    value = initialValue
    let (stream, source) = AsyncStream.makeStream(of: Element<Value>.self)
    let progress = DeliveryProgress(executor: .current)
    self.source = source
    self.progress = progress
    let shared = CountedSource(stream, progress: progress).share(bufferingPolicy: .unbounded)
    startObserver = { handler in
      // A side starts at the front of share()'s buffer: whether it gets a value depends on
      // whether share()'s task buffered it yet.
      progress.awaitHandOff()
      // The iterator is made here, not in the task, so that its side of the share exists when
      // `observe` returns: `share()` gives a side only the values it takes from the source
      // after the side was made.
      let consumer = UncheckedSendable((shared.makeAsyncIterator(), handler))
      progress.observerStarted()
      let executor = ObserverExecutor(runLoop: .current, progress: progress)
      // Started immediately, the task runs its first step here and waits in `next()` for the
      // first element before `observe` returns, so a cancel reaches `share()` at once; every
      // later step runs on its preferred executor, the observing thread's loop. At high
      // priority, as a task made on an app's main thread inherits its user-interactive one:
      // share()'s own task, which the first side's `next()` makes, inherits it and runs ahead
      // of the global pool's other work (a test process's queued tests, say) instead of after.
      let task = Task.immediate(priority: .high, executorPreference: executor) {
        await deliverElements(of: consumer, on: executor)
      }
      executor.started()
      // The new side's wait may have had share()'s task take values yielded before it.
      progress.awaitHandOff()
      return SharedValueToken(task, progress: progress)
    }
  }

  /// Starts a task that iterates the shared sequence on the calling thread's loop and calls
  /// `handler` with each element; the current value is not sent, and `handler` is never called
  /// before `observe` returns.
  ///
  /// - Complexity: O(1) amortized, plus the wait while `share()` hands the new side any value
  ///   it had not yet taken from the source; each element arrives when the thread's loop runs.
  public func observe(_ handler: @escaping (Value) -> Void) -> SharedValueToken {
    startObserver(handler)
  }
}

/// An observer task's body: takes each element from its side of the share and calls the
/// handler with it, on `executor`'s thread.
///
/// A function of its own, not the task's closure: Swift 6.3.1's compiler crashes (signal 11,
/// in `SILGenCleanup`) on this loop written inside the closure when `-O` meets
/// `-enable-testing`, as `swift test -c release` compiles it.
private func deliverElements<Iterator: AsyncIteratorProtocol, Value>(
  of consumer: UncheckedSendable<(Iterator, (Value) -> Void)>, on executor: ObserverExecutor
) async where Iterator.Element == Element<Value>, Iterator.Failure == Never {
  var (iterator, handler) = consumer.value
  while true {
    executor.taskWillWait()
    let element = await iterator.next(isolation: nil)
    executor.taskResumed()
    guard let element else { return }
    // Resumed before its first wait suspended (share()'s task, on another thread, was
    // that quick), the task would call the handler inside `observe`: it goes to the loop
    // first, as every other delivery does.
    if !executor.hasStarted { await Task.yield() }
    handler(element.value)
  }
}

/// A value as it travels through the shared sequence, which needs `Sendable` elements. The
/// value never leaves the observing thread: `share()`'s own task only holds it.
struct Element<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// Hands what a task needs across its creation, where Swift cannot see that the task runs on
/// the calling thread's loop, never elsewhere.
struct UncheckedSendable<Wrapped>: @unchecked Sendable {
  let value: Wrapped
  init(_ value: Wrapped) { self.value = value }
}
