import Foundation
import Synchronization
import Testing

@testable import RunLoopExecution

/// The run loop executor that the `Observations` backends deliver through, and that their
/// `awaitDelivery` runs.
@Suite("The observing thread's run loop executor")
struct RunLoopExecutorTests {
  /// The CPU time the calling thread has used.
  private static func threadCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
  }

  @Test("Waiting for a delivery that never comes sleeps instead of polling the run loop")
  func waitingSleeps() {
    let timeout = Duration.milliseconds(300)
    let before = Self.threadCPUTime()
    let arrived = RunLoopExecutor.spin(until: { false }, timeout: timeout)
    let used = Self.threadCPUTime() - before
    #expect(!arrived)
    // Polling uses the whole wait (about 300 ms); sleeping between checks, a few milliseconds.
    #expect(used < timeout / 3, "the waiting thread used \(used) of CPU in \(timeout)")
  }

  @Test("A job enqueued from another thread runs on the waiting thread, which then returns")
  func jobFromAnotherThreadRuns() async {
    /// 0 while the job has not run; then 1 if it ran on the waiting thread, 2 elsewhere.
    let ranWhere = ManagedAtomic(0)
    let returned = await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        let executor = RunLoopExecutor.current
        let waitingThread = UInt(bitPattern: Int(pthread_self()))
        Thread.detachNewThread {
          Thread.sleep(forTimeInterval: 0.05)
          _ = Task(executorPreference: executor) {
            let here = UInt(bitPattern: Int(pthread_self()))
            ranWhere.value.store(here == waitingThread ? 1 : 2, ordering: .sequentiallyConsistent)
          }
        }
        continuation.resume(
          returning: RunLoopExecutor.spin(
            until: { ranWhere.value.load(ordering: .sequentiallyConsistent) != 0 },
            timeout: .seconds(10)))
      }
    }
    #expect(returned)
    #expect(ranWhere.value.load(ordering: .sequentiallyConsistent) == 1)
  }
}

/// An atomic that closures on several threads share.
private final class ManagedAtomic: Sendable {
  let value: Atomic<Int>
  init(_ initial: Int) { value = Atomic(initial) }
}
