import RunLoopExecution
import Synchronization

/// One observer's task executor: the observing thread's run loop executor, seen through a
/// forwarder that records when `share()` resumes the observer's task, so that
/// ``DeliveryProgress`` knows whether the observer's side still waits for a value.
///
/// The task suspends only in its side's `next()`, and only a resumption enqueues it (it starts
/// immediately, on the thread that observes): the first job enqueued after the task began to
/// wait is `share()` handing it a value, or its cancellation ending it.
final class ObserverExecutor: TaskExecutor {
  private let runLoop: RunLoopExecutor
  private let progress: DeliveryProgress
  /// Whether the task waits in `next()` and nothing has resumed it yet.
  private let waiting = Atomic<Bool>(false)
  /// Whether `observe` has returned from starting the task.
  private let startReturned = Atomic<Bool>(false)

  init(runLoop: RunLoopExecutor, progress: DeliveryProgress) {
    self.runLoop = runLoop
    self.progress = progress
  }

  /// Called by `observe` once the task's first step, which runs inside it, has returned.
  func started() { startReturned.store(true, ordering: .sequentiallyConsistent) }

  /// Whether `observe` has returned from starting the task: until then, the task runs inside
  /// it.
  var hasStarted: Bool { startReturned.load(ordering: .sequentiallyConsistent) }

  /// Called by the task, on the observing thread, just before it asks its side for a value.
  func taskWillWait() {
    waiting.store(true, ordering: .sequentiallyConsistent)
    progress.sideWaits()
  }

  /// Called by the task, on the observing thread, when its side's `next()` has returned,
  /// whether or not it suspended.
  func taskResumed() { stopWaiting() }

  /// Records the resumption, then queues `job` on the observing thread's loop.
  ///
  /// The record comes first: the job may run as soon as it is queued, and the task then waits
  /// again, which a later record must not mistake for this resumption. The loop expects a job
  /// from before the record until the job is queued: otherwise a wait on the observing thread
  /// could see the side resumed (so `share()` settled) and the loop empty in between, and call
  /// the deliveries done with this one still on its way.
  func enqueue(_ job: consuming ExecutorJob) {
    runLoop.expectJobs()
    stopWaiting()
    runLoop.enqueue(job)
    runLoop.stopExpectingJobs()
  }

  private func stopWaiting() {
    if waiting.exchange(false, ordering: .sequentiallyConsistent) {
      progress.sideResumed()
    }
  }
}
