import Foundation
import ObservationCore
import RunLoopExecution

/// A value whose every observer is an `AsyncStream` of its own, consumed by a task: the
/// pattern most "replace Combine" guides teach.
///
/// Written the way an app writes it: the setter stores, then yields the new value to each live
/// observer's continuation, kept in a dictionary keyed by a `UUID`; each observer's task
/// iterates its stream in the observing thread's run loop (the part the main actor plays in an
/// app) and calls the handler with each element. The streams buffer without bound, so a slow
/// observer still sees every value, late. Not thread-safe, as the main-actor model it stands for
/// is not.
///
/// ```swift
/// let title = StreamedValue("")
/// let token = title.observe { print($0) }
/// title.value = "Intro"   // printed when the thread's run loop next runs
/// ```
public final class StreamedValue<Value>: ObservableValue {
  private var continuations: [UUID: AsyncStream<Value>.Continuation] = [:]

  /// The current value; setting it yields the new value to every observer's stream.
  ///
  /// - Complexity: O(*n*) for *n* observers: one `yield` each.
  public var value: Value {
    didSet {
      for continuation in continuations.values { continuation.yield(value) }
    }
  }

  /// Creates a value holding `initialValue`, with no observers.
  public init(_ initialValue: Value) { value = initialValue }

  /// Makes a stream for `handler` and starts the task that iterates it on the calling thread's
  /// run loop; the current value is not sent.
  ///
  /// - Complexity: O(1) amortized; each element arrives when the thread's run loop runs.
  public func observe(_ handler: @escaping (Value) -> Void) -> StreamedValueToken {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
    let id = UUID()
    continuations[id] = continuation
    let isolation = RunLoopIsolation()
    let consumer = UncheckedSendable((stream, handler))
    // Started immediately, the task's first step runs here and waits for the first element, so
    // observers start in the order they were registered.
    let task = Task.immediate(executorPreference: RunLoopExecutor.current) {
      await isolation.consume(consumer.value.0, consumer.value.1)
    }
    return StreamedValueToken { [weak self] in
      self?.continuations.removeValue(forKey: id)?.finish()
      task.cancel()
    }
  }
}

/// Hands what a task needs across its creation, where Swift cannot see that the task runs on
/// the calling thread's run loop, never elsewhere.
struct UncheckedSendable<Wrapped>: @unchecked Sendable {
  let value: Wrapped
  init(_ value: Wrapped) { self.value = value }
}

extension RunLoopIsolation {
  /// Iterates `stream` in this isolation, calling `handler` with each element until the stream
  /// finishes or the task is cancelled.
  func consume<Element>(_ stream: AsyncStream<Element>, _ handler: (Element) -> Void) async {
    for await element in stream { handler(element) }
  }
}
