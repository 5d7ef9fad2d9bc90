import Synchronization
import Testing

/// `AsyncStream` and `Task` on their own, without Observatory's contract: the behaviours behind
/// the `async-stream` backend's findings in the conformance matrix, as an app meets them.
@Suite("AsyncStream on its own")
struct AsyncStreamFindingsTests {
  private final class Canary: Sendable {}

  /// What a subject keeps of an observer: its stream's continuation, and nothing else.
  private final class ContinuationHolder {
    let continuation: AsyncStream<Int>.Continuation
    init(_ continuation: AsyncStream<Int>.Continuation) { self.continuation = continuation }
  }

  @Test("A cancelled task still gets what its finished stream buffered before (CAN-02)")
  func bufferedElementsOutliveCancellation() {
    let executor = HeldExecutor()
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let received = Mutex<[Int]>([])
    let task = Task(executorPreference: executor) {
      for await element in stream { received.withLock { $0.append(element) } }
    }
    executor.runAll()  // the task waits for its first element
    continuation.yield(1)
    task.cancel()
    continuation.finish()
    executor.runAll()
    #expect(received.withLock { $0 } == [1])
  }

  @Test("A cancelled task keeps its captures until its executor runs it again (MEM-01, MEM-05)")
  func cancelledTaskKeepsCaptures() {
    let executor = HeldExecutor()
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    weak var watched: Canary?
    let task: Task<Void, Never>
    do {
      let canary = Canary()
      watched = canary
      task = Task(executorPreference: executor) {
        for await _ in stream { withExtendedLifetime(canary) {} }
      }
    }
    executor.runAll()
    task.cancel()
    continuation.finish()
    #expect(watched != nil)
    executor.runAll()
    #expect(watched == nil)
  }

  @Test(
    "Every element buffered before a cancel arrives after it, not only the one in flight (DIFF-01)"
  )
  func everyBufferedElementOutlivesCancellation() {
    let executor = HeldExecutor()
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let received = Mutex<[Int]>([])
    let task = Task(executorPreference: executor) {
      for await element in stream { received.withLock { $0.append(element) } }
    }
    executor.runAll()
    continuation.yield(5)
    continuation.yield(6)
    // The observer's cancel, as an app writes it, returns here: nothing has been delivered.
    task.cancel()
    continuation.finish()
    #expect(received.withLock { $0 } == [])
    executor.runAll()
    #expect(received.withLock { $0 } == [5, 6])
  }

  @Test(
    "A stream whose continuation is released without finish never ends: its task keeps its captures (MEM-04)"
  )
  func droppedContinuationKeepsTheConsumer() {
    let executor = HeldExecutor()
    weak var watched: Canary?
    var subject: ContinuationHolder?
    weak var heldBy: ContinuationHolder?
    let task: Task<Void, Never>
    do {
      let (stream, made) = AsyncStream.makeStream(of: Int.self)
      subject = ContinuationHolder(made)
      heldBy = subject
      let canary = Canary()
      watched = canary
      task = Task(executorPreference: executor) {
        for await _ in stream { withExtendedLifetime(canary) {} }
      }
    }
    executor.runAll()
    subject = nil
    #expect(heldBy == nil, "the continuation's only owner is gone")
    executor.runAll()
    #expect(watched != nil)
    // Only cancelling the task ends it.
    task.cancel()
    executor.runAll()
    #expect(watched == nil)
  }
}
