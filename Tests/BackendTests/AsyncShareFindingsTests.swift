import AsyncAlgorithms
import Foundation
import Synchronization
import Testing

/// swift-async-algorithms' `share()`, `AsyncStream` and `Task` on their own, without
/// Observatory's contract: the behaviours behind the `async-share` backend's findings in the
/// conformance matrix, as an app meets them. Each observer is a task, on an executor that runs
/// only when asked (an app's main run loop), iterating the shared sequence at high priority (a
/// main thread's tasks inherit its user-interactive one); `share()` takes from the source in a
/// task of its own on the global executor, which inherits that priority.
@Suite("share() on its own")
struct AsyncShareFindingsTests {
  private final class Canary: Sendable {}

  /// What a subject keeps: its source's continuation, and nothing else.
  private final class ContinuationHolder {
    let continuation: AsyncStream<Int>.Continuation
    init(_ continuation: AsyncStream<Int>.Continuation) { self.continuation = continuation }
  }

  /// Runs `executor`'s jobs until `condition` holds or ten seconds pass, letting `share()`'s
  /// task on the global executor enqueue more in between.
  private func run(_ executor: HeldExecutor, until condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
      guard ContinuousClock.now < deadline else { return false }
      executor.runAll()
      if !condition() { executor.idle(for: .milliseconds(1)) }
    }
    return true
  }

  @Test(
    "A value handed to a side before its task was cancelled arrives after the cancel (CAN-02, DIFF-01)"
  )
  func handedOnValueOutlivesCancellation() async {
    await OwnThread.run { Self().handedOnValueOutlivesCancellationBody() }
  }

  private func handedOnValueOutlivesCancellationBody() {
    let executor = HeldExecutor()
    let (stream, source) = AsyncStream.makeStream(of: Int.self)
    let shared = stream.share(bufferingPolicy: .unbounded)
    let received = Mutex<[Int]>([])
    let task = Task(executorPreference: executor, priority: .high) {
      for await element in shared { received.withLock { $0.append(element) } }
    }
    executor.runAll()  // the task makes its side and waits for the first element
    source.yield(1)
    // share()'s task has resumed the side with 1: the observer's next step waits here.
    #expect(executor.awaitQueued(1))
    // The observer's cancel, as an app writes it, returns here: nothing has been delivered.
    task.cancel()
    #expect(received.withLock { $0 } == [])
    executor.runAll()
    #expect(received.withLock { $0 } == [1])
  }

  @Test("A cancelled task keeps its captures until its executor runs it again (MEM-01, MEM-05)")
  func cancelledTaskKeepsCaptures() async {
    await OwnThread.run { Self().cancelledTaskKeepsCapturesBody() }
  }

  private func cancelledTaskKeepsCapturesBody() {
    let executor = HeldExecutor()
    let (stream, source) = AsyncStream.makeStream(of: Int.self)
    let shared = stream.share(bufferingPolicy: .unbounded)
    weak var watched: Canary?
    let task: Task<Void, Never>
    do {
      let canary = Canary()
      watched = canary
      task = Task(executorPreference: executor, priority: .high) {
        for await _ in shared { withExtendedLifetime(canary) {} }
      }
    }
    executor.runAll()
    task.cancel()
    #expect(watched != nil)
    executor.runAll()
    #expect(watched == nil)
    withExtendedLifetime(source) {}
  }

  @Test(
    "A source whose continuation is released without finish never ends its sides: their tasks keep their captures (MEM-04)"
  )
  func droppedSourceKeepsTheSides() async {
    await OwnThread.run { Self().droppedSourceKeepsTheSidesBody() }
  }

  private func droppedSourceKeepsTheSidesBody() {
    let executor = HeldExecutor()
    weak var watched: Canary?
    var subject: ContinuationHolder?
    weak var heldBy: ContinuationHolder?
    let task: Task<Void, Never>
    do {
      let (stream, made) = AsyncStream.makeStream(of: Int.self)
      let shared = stream.share(bufferingPolicy: .unbounded)
      subject = ContinuationHolder(made)
      heldBy = subject
      let canary = Canary()
      watched = canary
      task = Task(executorPreference: executor, priority: .high) {
        for await _ in shared { withExtendedLifetime(canary) {} }
      }
    }
    executor.runAll()
    subject = nil
    #expect(heldBy == nil, "the continuation's only owner is gone")
    executor.idle(for: .milliseconds(50))
    executor.runAll()
    #expect(watched != nil)
    // Only cancelling the task ends it.
    task.cancel()
    executor.runAll()
    #expect(watched == nil)
  }

  @Test(
    "A side made after a value was yielded receives it, when no side was waiting as it was yielded (DIFF-01)"
  )
  func lateSideReceivesAnEarlierValue() async {
    await OwnThread.run { Self().lateSideReceivesAnEarlierValueBody() }
  }

  private func lateSideReceivesAnEarlierValueBody() {
    let executor = HeldExecutor()
    let (stream, source) = AsyncStream.makeStream(of: Int.self)
    let shared = stream.share(bufferingPolicy: .unbounded)
    let first = Mutex<[Int]>([])
    let late = Mutex<[Int]>([])
    let firstTask = Task(executorPreference: executor, priority: .high) {
      for await element in shared { first.withLock { $0.append(element) } }
    }
    executor.runAll()
    source.yield(1)
    // share() resumed the only side with 1; until its task runs, no side waits, so share()
    // takes nothing more from the source.
    #expect(executor.awaitQueued(1))
    source.yield(2)
    executor.idle(for: .milliseconds(50))
    // A new observer, subscribed after 2 was set. Its side is made here, before the first
    // observer's task runs again (as the adapter's `observe` makes it): made inside the task,
    // whether it exists when share()'s task takes 2 would depend on which thread runs first.
    let lateIterator = shared.makeAsyncIterator()
    let lateTask = Task(executorPreference: executor, priority: .high) {
      var iterator = lateIterator
      while let element = await iterator.next(isolation: nil) {
        late.withLock { $0.append(element) }
      }
    }
    #expect(run(executor) { late.withLock { !$0.isEmpty } && first.withLock { $0.count == 2 } })
    #expect(first.withLock { $0 } == [1, 2])
    #expect(late.withLock { $0 } == [2], "a value set before this side existed")
    firstTask.cancel()
    lateTask.cancel()
    executor.runAll()
  }
}
