import Synchronization
import Testing

/// `AsyncStream` and `Task` on their own, without Observatory's contract: the behaviours behind
/// the `async-stream` backend's findings in the conformance matrix, as an app meets them.
@Suite("AsyncStream on its own")
struct AsyncStreamFindingsTests {
  /// A task executor that runs its jobs only when asked, as a main run loop runs them only when
  /// its thread returns to it.
  private final class HeldExecutor: TaskExecutor, @unchecked Sendable {
    private let jobs = Mutex<[UnownedJob]>([])

    func enqueue(_ job: consuming ExecutorJob) {
      let job = UnownedJob(job)
      jobs.withLock { $0.append(job) }
    }

    /// Runs the jobs enqueued so far and those they enqueue, until none is left.
    func runAll() {
      while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
        job.runSynchronously(on: asUnownedTaskExecutor())
      }
    }
  }

  private final class Canary: Sendable {}

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

  @Test("A cancelled task keeps its captures until its executor runs it again (MEM-01)")
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
}
