import Foundation
import Synchronization

/// A task executor that runs its jobs only when asked, as a main run loop runs them only when
/// its thread returns to it: what the findings tests about `AsyncStream` and `share()` use in
/// place of Observatory's run loop executor, so that they show the libraries alone.
final class HeldExecutor: TaskExecutor, @unchecked Sendable {
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

  /// Waits, without running anything, until `count` jobs are queued here (another thread, such
  /// as `share()`'s task on the global executor, enqueues them) or `timeout` passes; returns
  /// whether they are.
  func awaitQueued(_ count: Int, timeout: Duration = .seconds(10)) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while jobs.withLock({ $0.count }) < count {
      guard ContinuousClock.now < deadline else { return false }
      Thread.sleep(forTimeInterval: 0.001)
    }
    return true
  }

  /// Waits, running nothing, for `duration`: time for another thread to act, if it would.
  func idle(for duration: Duration) {
    Thread.sleep(
      forTimeInterval: Double(duration.components.seconds)
        + Double(duration.components.attoseconds) / 1e18)
  }
}
