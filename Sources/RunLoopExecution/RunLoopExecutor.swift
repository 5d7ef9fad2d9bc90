import DequeModule
import Foundation
import Synchronization

/// A serial executor whose jobs run on one thread, the thread that observes, only while that
/// thread waits in ``spin(until:timeout:)``: a run loop of its own.
///
/// The asynchronous backends (`Observations`, `AsyncStream`, `share()`) deliver through it, and
/// their `awaitDelivery` runs it.
///
/// It plays the part the main actor plays in an app: code isolated to it runs only when its
/// thread returns to its loop, so writes made in one synchronous block on that thread form one
/// transaction for `Observations`.
///
/// It is also the observing tasks' preferred task executor, so their nonisolated steps run on
/// the same thread and never wait for a thread of the global pool, which may be busy (all of
/// it, when parallel tests block their threads while they spin).
///
/// The jobs wait in a queue of its own rather than in Foundation's `RunLoop`: on Linux,
/// `RunLoop.perform` allocates a mode array, a block and run loop bookkeeping for every job,
/// which made the executor, not the strategy it runs, most of an asynchronous delivery's cost.
@usableFromInline
package final class RunLoopExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
  /// Jobs enqueued and not yet started, oldest first. Behind a pthread mutex, not a `Mutex`,
  /// so that the thread sanitizer sees the ordering when several threads enqueue at once (as
  /// they do on a thread-safe backend's actor): see ``PthreadMutex``.
  private let queue = PthreadMutex(Deque<UnownedJob>())
  /// Jobs enqueued and not yet run to their end.
  private let pendingJobs = Atomic<Int>(0)

  private init() {}

  /// Queues `job` to run when the executor's thread next spins, and wakes it if it sleeps.
  ///
  /// - Complexity: O(1) amortized; no allocation once the queue has grown to its working size.
  @usableFromInline
  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    pendingJobs.add(1, ordering: .sequentiallyConsistent)
    queue.withLock { $0.append(job) }
    Self.jobArrived.signal()
  }

  /// Runs the jobs queued so far, and those they queue, until none is left.
  private func runQueuedJobs() {
    let executor = asUnownedSerialExecutor()
    while let job = queue.withLock({ $0.popFirst() }) {
      job.runSynchronously(on: executor)
      pendingJobs.subtract(1, ordering: .sequentiallyConsistent)
    }
  }

  /// Wakes a thread that waits in ``spin(until:timeout:)`` when a job is enqueued, so that it
  /// sleeps instead of polling its queue.
  private static let jobArrived = WakeSignal()

  /// The longest a waiting thread sleeps before it checks its condition again, for the
  /// conditions that another thread makes true without enqueuing a job here.
  private static let recheckInterval = Duration.microseconds(500)

  /// Work under way on other threads that will enqueue jobs here: a count that code outside
  /// the executor raises and lowers (``expectJobs()``, ``stopExpectingJobs()``).
  private let expectedWork = Atomic<Int>(0)

  /// Says that work on another thread (`share()`'s task on the global executor) will enqueue
  /// jobs here: until the matching ``stopExpectingJobs()`` the executor is not idle.
  package func expectJobs() { expectedWork.add(1, ordering: .sequentiallyConsistent) }

  /// Withdraws one ``expectJobs()``.
  package func stopExpectingJobs() { expectedWork.subtract(1, ordering: .sequentiallyConsistent) }

  /// Whether every job enqueued so far has run and no other thread's work is expected to
  /// enqueue more.
  package var isIdle: Bool {
    pendingJobs.load(ordering: .sequentiallyConsistent) == 0
      && expectedWork.load(ordering: .sequentiallyConsistent) == 0
  }

  /// The executor of the calling thread, made on first use and kept for the thread's life.
  ///
  /// - Complexity: O(1): one thread-specific load.
  @usableFromInline
  package static var current: RunLoopExecutor {
    if let stored = pthread_getspecific(threadKey) {
      return Unmanaged<RunLoopExecutor>.fromOpaque(stored).takeUnretainedValue()
    }
    let executor = RunLoopExecutor()
    liveExecutors.withLock { $0[ObjectIdentifier(executor)] = executor }
    pthread_setspecific(threadKey, Unmanaged.passUnretained(executor).toOpaque())
    return executor
  }

  /// Every live thread's executor, which this table owns: the thread-specific slot only points
  /// at it. LeakSanitizer does not read thread-specific data, so an executor owned from there
  /// would look leaked, with every task and job that only it reaches.
  private static let liveExecutors = PthreadMutex<[ObjectIdentifier: RunLoopExecutor]>([:])

  /// The thread-specific slot that finds each thread's executor. When the thread exits, an
  /// idle executor leaves ``liveExecutors``; one with jobs left stays, with its jobs, which no
  /// thread can run any more but which would otherwise be tasks nothing points to.
  private static let threadKey: pthread_key_t = {
    var key = pthread_key_t()
    let created = pthread_key_create(&key) { stored in
      guard let stored else { return }
      let executor = Unmanaged<RunLoopExecutor>.fromOpaque(stored).takeUnretainedValue()
      guard executor.isIdle else { return }
      _ = RunLoopExecutor.liveExecutors.withLock {
        $0.removeValue(forKey: ObjectIdentifier(executor))
      }
    }
    precondition(created == 0, "pthread_key_create failed with \(created)")
    return key
  }()

  /// Runs the calling thread's queued jobs until `condition` holds or `timeout` passes, and
  /// returns whether `condition` holds.
  package static func spin(until condition: () -> Bool, timeout: Duration) -> Bool {
    let executor = current
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition() {
      // A job enqueued after this point changes the generation, so the wait below returns at
      // once; one enqueued before it runs in this turn.
      let generation = jobArrived.generation
      executor.runQueuedJobs()
      if condition() { return true }
      let now = clock.now
      guard now < deadline else { return false }
      jobArrived.wait(whileGeneration: generation, upTo: min(deadline, now + recheckInterval))
    }
    return true
  }

  /// Runs the calling thread's queued jobs until its executor has run every job enqueued so
  /// far (and the jobs those enqueued), or `timeout` passes; returns whether it is idle.
  package static func spinUntilIdle(timeout: Duration) -> Bool {
    let executor = current
    return spin(until: { executor.isIdle }, timeout: timeout)
  }

  /// Runs the calling thread's queued jobs until `condition` holds, its executor is idle, or
  /// `timeout` passes; returns whether `condition` holds: an asynchronous backend's wait for
  /// delivery, when every delivery is a job on the observing thread's executor, so that once
  /// none is left nothing more arrives until the caller acts again.
  package static func spin(untilIdleOr condition: () -> Bool, timeout: Duration) -> Bool {
    let executor = current
    _ = spin(until: { condition() || executor.isIdle }, timeout: timeout)
    return condition()
  }
}
