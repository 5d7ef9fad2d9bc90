import ObservationCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The contended workloads: several threads using one subject at once.
///
/// Only a backend that declares `threadSafe` runs them (the harness reports `n/a` for any
/// other): its subject is then shared with the threads as the declaration allows. Each driver
/// starts its threads before the clock (``WorkerThreads``), opens their gate in the timed
/// region, and stops the clock when every thread has finished; an asynchronous backend's
/// deliveries are waited for inside the region too, on the thread that made the subject,
/// whose loop delivers them, so that a write's cost includes its delivery.
///
/// Allocations are counted process-wide; allocated bytes are the sum of every thread's own
/// count, each worker reading its thread's counter around its work.
extension Drivers {
  /// The writes `contended-notify` makes in all, shared by its threads: about a million
  /// deliveries, so that each thread has far more work than a scheduler's time slice.
  @inlinable
  public static func contendedWrites(for n: Int, scale: WorkScale = .full) -> Int {
    scale.scaled(max(1, 1_048_576 / max(n, 1)))
  }

  /// The subscribe-and-cancel steps `contended-churn` takes in all, shared by its threads.
  @inlinable
  public static func contendedChurnSteps(scale: WorkScale = .full) -> Int {
    scale.scaled(65_536)
  }

  /// `threads` threads each make an equal share of ``contendedWrites(for:scale:)`` writes to
  /// one subject with `n` observers; cost per delivered observer.
  ///
  /// Each thread writes values of its own (``ContendedTally``), so the check knows that every
  /// thread's every write reached every observer, where the backend delivers every value.
  ///
  /// - Complexity: the hypothesis is O(*n*) per write, O(1) per delivery, whatever the number
  ///   of threads; a lock makes the threads take turns, so the cost per delivery stays at best
  ///   flat as threads are added.
  @inlinable
  public static func contendedNotify<B: ObservationBackend>(
    _ backend: B, n: Int, threads: Int, probe: MemoryProbe, scale: WorkScale = .full
  ) -> Sample {
    let subject = backend.makeSubject(initialValue: 0)
    let tally = ContendedTally(threads: threads)
    let tokens = (0..<n).map { _ in subject.observe { tally.receive($0) } }
    settle(backend)
    tally.reset()
    let writesPerThread = max(1, contendedWrites(for: n, scale: scale) / threads)
    let bytes = ThreadBytes(probe)
    let work = SharedAcrossThreads { (thread: Int) in
      let before = bytes.read()
      for write in 1...writesPerThread {
        subject.value = tally.value(write: write, thread: thread)
      }
      bytes.add(since: before)
    }
    let workers = WorkerThreads(count: threads) { work.value($0) }
    let expected = writesPerThread * n
    var region = TimedRegion(probe: probe)
    region.start()
    workers.release()
    if !backend.capabilities.has(.synchronousDelivery) {
      awaitContended(backend) { tally.deliveries >= expected * threads }
    }
    workers.join()
    var sample = region.stop(operations: expected * threads)
    sample.allocatedBytes = bytes.total(adding: sample.allocatedBytes)
    sample.problem = checkContended(
      tally, threads: threads, expectedPerThread: expected, n: n,
      exact: backend.capabilities.has(.deliversEveryValue))
    withExtendedLifetime(tokens) {}
    return sample
  }

  /// `threads` threads each take an equal share of ``contendedChurnSteps(scale:)`` steps, a
  /// step subscribing an observer and cancelling it, on one subject with `n` standing
  /// observers, while one more thread writes to it without pause; cost per step.
  ///
  /// Once the threads are done, one write must reach exactly the `n` standing observers:
  /// every observer a step subscribed was cancelled, whatever the writes around it.
  ///
  /// - Complexity: the hypothesis is O(1) per step; a lock shared with the writer, which
  ///   holds it for O(*n*) deliveries a write, makes a step wait for them.
  @inlinable
  public static func contendedChurn<B: ObservationBackend>(
    _ backend: B, n: Int, threads: Int, probe: MemoryProbe, scale: WorkScale = .full
  ) -> Sample {
    let subject = backend.makeSubject(initialValue: 0)
    let tally = ContendedTally(threads: 1)
    let tokens = (0..<n).map { _ in subject.observe { tally.receive($0) } }
    settle(backend)
    let stepsPerThread = max(1, contendedChurnSteps(scale: scale) / threads)
    let bytes = ThreadBytes(probe)
    let finished = FinishedThreads()
    let work = SharedAcrossThreads { (thread: Int) in
      let before = bytes.read()
      if thread == threads {
        // The writer: distinct values, so that a backend that skips equal writes delivers.
        var value = 0
        while finished.count < threads {
          value &+= 1
          subject.value = value
        }
      } else {
        for _ in 0..<stepsPerThread {
          let token = subject.observe { tally.receive($0) }
          token.cancel()
        }
        finished.add()
      }
      bytes.add(since: before)
    }
    let workers = WorkerThreads(count: threads + 1) { work.value($0) }
    var region = TimedRegion(probe: probe)
    region.start()
    workers.release()
    if !backend.capabilities.has(.synchronousDelivery) {
      awaitContended(backend) { finished.count == threads }
    }
    workers.join()
    var sample = region.stop(operations: stepsPerThread * threads)
    sample.allocatedBytes = bytes.total(adding: sample.allocatedBytes)
    settle(backend)
    tally.reset()
    subject.value = -1
    if !backend.capabilities.has(.synchronousDelivery) {
      awaitContended(backend) { tally.deliveries >= n }
      drain(backend)
    }
    let delivered = tally.deliveries
    if delivered != n {
      sample.problem =
        "after \(stepsPerThread * threads) contended churn steps on \(threads) threads: one write"
        + " should reach the \(n) standing observers, it reached \(delivered)"
    }
    withExtendedLifetime(tokens) {}
    return sample
  }

  /// Lets an asynchronous backend run everything it has scheduled (the observers' starts and
  /// replays) before a region or a check.
  @inlinable
  static func settle<B: ObservationBackend>(_ backend: B) {
    guard !backend.capabilities.has(.synchronousDelivery) else { return }
    _ = backend.awaitScheduledDeliveries(timeout: .seconds(10))
  }

  /// Runs an asynchronous backend's deliveries on this thread while other threads write, until
  /// `done` holds, or until ten seconds pass without it getting closer (the check then fails).
  @inlinable
  static func awaitContended<B: ObservationBackend>(_ backend: B, until done: () -> Bool) {
    var lastProgress = Stopwatch.now()
    while !done() {
      let before = lastProgress
      if backend.awaitDelivery(until: done, timeout: .milliseconds(10)) { return }
      let now = Stopwatch.now()
      // The wait ends early when the backend has nothing scheduled: the writers have not
      // written yet, and yielding lets them.
      if now - before < 1_000_000 { sched_yield() }
      if now - lastProgress > 10_000_000_000 { return }
      lastProgress = now
    }
  }

  /// Checks a contended-notify tally: with `exact`, each thread's writes reached each observer;
  /// otherwise (a backend that may coalesce) no more than that, and at least one write each.
  @inlinable
  static func checkContended(
    _ tally: ContendedTally, threads: Int, expectedPerThread: Int, n: Int, exact: Bool
  ) -> String? {
    for thread in 0..<threads {
      let delivered = tally.deliveries(ofThread: thread)
      if exact ? delivered != expectedPerThread : delivered > expectedPerThread || delivered < n {
        return "thread \(thread) of \(threads): expected \(expectedPerThread) deliveries of its"
          + " writes\(exact ? "" : " at most, \(n) at least"), observed \(delivered)"
      }
    }
    return nil
  }
}

/// The work of a contended workload's threads, which uses the subject from each of them. Swift
/// cannot see that the backend declared `threadSafe`, which is what makes sharing the subject
/// sound; only such a backend runs these workloads. Boxing the closure also keeps the
/// backend's types out of what the threads capture.
@usableFromInline
struct SharedAcrossThreads<Wrapped>: @unchecked Sendable {
  @usableFromInline let value: Wrapped
  @inlinable init(_ value: Wrapped) { self.value = value }
}

/// How many of a contended churn's stepping threads have finished.
@usableFromInline
final class FinishedThreads: Sendable {
  @usableFromInline let finished = Atomic<Int>(0)
  @inlinable init() {}
  @inlinable var count: Int { finished.load(ordering: .acquiring) }
  @inlinable func add() { finished.wrappingAdd(1, ordering: .releasing) }
}

/// The bytes the threads of a contended workload allocate, each read from its own thread's
/// counter (jemalloc's is per thread); nothing without jemalloc.
@usableFromInline
final class ThreadBytes: Sendable {
  @usableFromInline let isAvailable: Bool
  @usableFromInline let bytes = Atomic<UInt64>(0)

  @inlinable init(_ probe: MemoryProbe) { isAvailable = probe.isAvailable }

  /// The calling thread's allocated bytes so far.
  @inlinable func read() -> UInt64 { isAvailable ? MemoryProbe.threadAllocatedBytes() ?? 0 : 0 }

  /// Adds what the calling thread allocated since `before`.
  @inlinable func add(since before: UInt64) {
    guard isAvailable else { return }
    bytes.wrappingAdd(read() &- before, ordering: .relaxed)
  }

  /// The threads' bytes and the measuring thread's own, or `nil` without jemalloc.
  @inlinable func total(adding own: UInt64?) -> UInt64? {
    guard isAvailable, let own else { return nil }
    return own &+ bytes.load(ordering: .relaxed)
  }
}
