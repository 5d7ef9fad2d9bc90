import RunLoopExecution
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts what one ``SharedValue`` yielded and what `share()` has handed on, so that a wait for
/// deliveries can tell when nothing more will arrive.
///
/// `share()` takes each value from the source in a task of its own, on the global concurrent
/// executor, and resumes the observers' tasks from there: until it has, the observing thread's
/// executor may be idle with values still on their way. ``CountedSource`` sits between the
/// source and `share()` and records, each time `share()` asks for the next value, that every
/// value it took before has been handed on (`share()` resumes every waiting side with a value
/// before it asks for another).
///
/// A subject is *unsettled* while one of its observers is not cancelled and a value it yielded
/// has not been handed on (`share()` hands nothing to a cancelled observer's side, which its
/// cancellation handler removes; a value already handed to it is a job on the observing thread,
/// which the wait sees). An unsettled subject keeps its thread's executor from being idle, so a
/// wait reads one atomic however many subjects exist (the fan-in workload makes a million), and
/// a subject made on another thread never holds this one's waits.
///
/// It also tells when `share()`'s task can do nothing more without the observing thread: see
/// ``awaitHandOff(timeout:)``.
final class DeliveryProgress: Sendable {
  private struct Counts {
    var yielded = 0
    var handedOn = 0
    var liveObservers = 0
    var unsettled = false
    /// Observers' tasks that wait in their side's `next()` and have not been resumed.
    var waitingSides = 0

    /// Whether `share()`'s task has handed on everything it can without the observing thread:
    /// no side waits (so the task takes nothing from the source: it asks only while a side
    /// waits), or the task has handed on every value yielded and asked for the next.
    var isHandedOn: Bool { waitingSides == 0 || handedOn == yielded }
  }

  private let counts = Mutex(Counts())

  /// The executor of the thread the subject was made on, where its observers run: while the
  /// subject is unsettled, that executor expects jobs.
  private let executor: RunLoopExecutor

  init(executor: RunLoopExecutor) { self.executor = executor }

  func valueYielded() { update { $0.yielded += 1 } }
  func observerStarted() { update { $0.liveObservers += 1 } }
  func observerCancelled() { update { $0.liveObservers -= 1 } }

  /// Called by ``CountedSource`` when `share()` asks for a value, having taken `taken` before.
  func shareAsks(havingTaken taken: Int) { update { $0.handedOn = taken } }

  /// Called by ``ObserverExecutor`` when an observer's task asks its side for a value.
  func sideWaits() { counts.withLock { $0.waitingSides += 1 } }

  /// Called by ``ObserverExecutor`` when an observer's task that waited has been resumed.
  func sideResumed() { counts.withLock { $0.waitingSides -= 1 } }

  /// Waits, on the observing thread, until `share()`'s task has handed on everything it can
  /// without this thread, or `timeout` passes (then goes on as if it had).
  ///
  /// `share()`'s task runs on the global concurrent executor: without this wait, whether it
  /// has handed a value to the waiting sides when the observing thread's next statement runs
  /// (a cancel, a new observer) depends on which thread runs first. Once it holds, the state
  /// cannot change until this thread's loop runs an observer's job (no side starts waiting
  /// otherwise) or this thread yields a value.
  ///
  /// The bound is long: under load (`swift test` on two cores) `share()`'s task waited in the
  /// global pool for more than 2 s, and a cancel that then went on removed its side before the
  /// value reached it. The wait returns as soon as the hand-off is done, so the bound costs
  /// nothing unless the task is starved.
  ///
  /// - Complexity: O(1) when settled, which is the case when no observer's task waits; else as
  ///   long as `share()`'s task takes to resume the *n* waiting sides.
  func awaitHandOff(timeout: Duration = .seconds(30)) {
    if counts.withLock({ $0.isHandedOn }) { return }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    var checks = 0
    while !counts.withLock({ $0.isHandedOn }) {
      guard clock.now < deadline else { return }
      checks += 1
      // Give the processor to share()'s task first; sleep briefly once it is clearly busy.
      if checks < 100 { sched_yield() } else { usleep(50) }
    }
  }

  /// Applies `change`, then has the executor expect jobs or stop expecting them as the subject
  /// becomes unsettled or settled, under the same lock, so that the thread that yields and the
  /// one that hands on never miscount.
  private func update(_ change: (inout Counts) -> Void) {
    counts.withLock { counts in
      change(&counts)
      let unsettled = counts.liveObservers > 0 && counts.handedOn < counts.yielded
      if unsettled != counts.unsettled {
        counts.unsettled = unsettled
        if unsettled { executor.expectJobs() } else { executor.stopExpectingJobs() }
      }
    }
  }

  deinit {
    // Progress dies with the last of the subject, its tokens and share()'s task: nothing can
    // yield to it or hand on for it any more.
    if counts.withLock({ $0.unsettled }) {
      executor.stopExpectingJobs()
    }
  }
}

/// The `AsyncStream` source as `share()` sees it, unchanged but for ``DeliveryProgress``'s count.
struct CountedSource<Element: Sendable>: AsyncSequence, Sendable {
  typealias Failure = Never
  let base: AsyncStream<Element>
  let progress: DeliveryProgress

  init(_ base: AsyncStream<Element>, progress: DeliveryProgress) {
    self.base = base
    self.progress = progress
  }

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), progress: progress)
  }

  struct Iterator: AsyncIteratorProtocol {
    typealias Failure = Never
    var base: AsyncStream<Element>.Iterator
    let progress: DeliveryProgress
    var taken = 0

    mutating func next() async -> Element? {
      progress.shareAsks(havingTaken: taken)
      let element = await base.next()
      if element != nil { taken += 1 }
      return element
    }

    mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
      progress.shareAsks(havingTaken: taken)
      let element = await base.next(isolation: actor)
      if element != nil { taken += 1 }
      return element
    }
  }
}
