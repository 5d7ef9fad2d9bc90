import Foundation
import Synchronization

/// A serial executor that runs its jobs on one thread's run loop: the thread that observes.
///
/// The asynchronous backends (`Observations`, `AsyncStream`, `share()`) deliver through it, and
/// their `awaitDelivery` runs it: ``spin(until:timeout:)``.
///
/// It plays the part the main actor plays in an app: code isolated to it runs only when its
/// thread returns to the run loop, so writes made in one synchronous block on that thread form
/// one transaction for `Observations`.
///
/// It is also the observing tasks' preferred task executor, so their nonisolated steps run on
/// the same run loop and never wait for a thread of the global pool, which may be busy (all of
/// it, when parallel tests block their threads while they spin their run loops).
package final class RunLoopExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
  private let runLoop: RunLoop
  /// Jobs enqueued and not yet run to their end.
  private let pendingJobs = Atomic<Int>(0)

  /// An executor on the calling thread's run loop.
  package init() { runLoop = RunLoop.current }

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedSerialExecutor()
    pendingJobs.add(1, ordering: .sequentiallyConsistent)
    runLoop.perform { [self] in
      job.runSynchronously(on: executor)
      pendingJobs.subtract(1, ordering: .sequentiallyConsistent)
    }
    Self.jobArrived.signal()
  }

  /// Wakes a thread that waits in ``spin(until:timeout:)`` when a job is enqueued, so that it
  /// sleeps instead of polling its run loop: a run loop without input sources does not block
  /// (swift-corelibs-foundation returns from `run(mode:before:)` at once), and polling it cost
  /// a core for as long as a rule waited for a delivery or the lack of one.
  private static let jobArrived = WakeSignal()

  /// The longest a waiting thread sleeps before it checks its condition again, for the
  /// conditions that another thread makes true without enqueuing a job here.
  private static let recheckInterval = Duration.microseconds(500)

  /// Whether every job enqueued so far has run.
  package var isIdle: Bool { pendingJobs.load(ordering: .sequentiallyConsistent) == 0 }

  /// The executor of the calling thread, made on first use.
  package static var current: RunLoopExecutor {
    let key = "org.observatory.RunLoopExecutor"
    if let executor = Thread.current.threadDictionary[key] as? RunLoopExecutor { return executor }
    let executor = RunLoopExecutor()
    Thread.current.threadDictionary[key] = executor
    return executor
  }

  /// Runs the calling thread's run loop until `condition` holds or `timeout` passes, and
  /// returns whether `condition` holds.
  package static func spin(until condition: () -> Bool, timeout: Duration) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition() {
      let now = clock.now
      guard now < deadline else { return false }
      // A job enqueued after this point changes the generation, so the wait below returns at
      // once; one enqueued before it runs in this turn of the run loop.
      let generation = jobArrived.generation
      _ = RunLoop.current.run(mode: .default, before: .distantPast)
      if condition() { return true }
      jobArrived.wait(whileGeneration: generation, upTo: min(deadline, now + recheckInterval))
    }
    return true
  }

  /// Runs the calling thread's run loop until its executor has run every job enqueued so far
  /// (and the jobs those enqueued), or `timeout` passes; returns whether it is idle.
  package static func spinUntilIdle(timeout: Duration) -> Bool {
    let executor = current
    return spin(until: { executor.isIdle }, timeout: timeout)
  }
}
