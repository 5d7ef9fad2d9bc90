import CProcessControl
import Foundation
import Synchronization

/// Runs `body` on `threads` new threads at once and waits up to `timeout` seconds.
///
/// - Returns: `true` if every thread finished in time. Threads that did not finish (a deadlock)
///   are left running: the rule reports the deadlock instead of hanging the suite.
func runConcurrently(
  threads: Int, timeout: TimeInterval, _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
  let group = DispatchGroup()
  let start = DispatchSemaphore(value: 0)
  for index in 0..<threads {
    group.enter()
    let thread = Thread {
      // The rules' pauses (`usleep(20)` inside a critical window) last what they say, not
      // the 50 µs of timer slack Linux adds to each by default.
      _ = process_control_precise_sleeps()
      start.wait()
      body(index)
      group.leave()
    }
    thread.stackSize = 1 << 22
    thread.start()
  }
  for _ in 0..<threads { start.signal() }
  return RuleProgress.waiting(upTo: timeout) { group.wait(timeout: .now() + timeout) } == .success
}

/// A flag and counters shared between threads.
final class SharedCounters: @unchecked Sendable {
  let inFlight = Atomic<Int>(0)
  let maxInFlight = Atomic<Int>(0)
  let count = Atomic<Int>(0)
  let flag = Atomic<Bool>(false)

  func enter() {
    let now = inFlight.add(1, ordering: .sequentiallyConsistent).newValue
    Self.raise(maxInFlight, to: now)
  }

  func leave() { inFlight.subtract(1, ordering: .sequentiallyConsistent) }

  /// Raises ``count`` to `value` if it is lower.
  func raise(to value: Int) { Self.raise(count, to: value) }

  /// Raises `atomic` to `value` if it is lower.
  private static func raise(_ atomic: borrowing Atomic<Int>, to value: Int) {
    var seen = atomic.load(ordering: .sequentiallyConsistent)
    while value > seen {
      let (exchanged, original) = atomic.compareExchange(
        expected: seen, desired: value, ordering: .sequentiallyConsistent)
      if exchanged { break }
      seen = original
    }
  }
}

/// Counts callbacks that start while another thread is inside the same observer: a nested
/// callback on the same thread (reentrancy) is not an overlap.
final class CrossThreadOverlap: @unchecked Sendable {
  private let depths = Locked<[ObjectIdentifier: Int]>([:])
  private let overlaps = Atomic<Int>(0)

  /// How many callbacks started while another thread was inside.
  var worst: Int { overlaps.load(ordering: .sequentiallyConsistent) }

  func enter() {
    let me = ObjectIdentifier(Thread.current)
    let others = depths.withLock { depths -> Bool in
      defer { depths[me, default: 0] += 1 }
      return depths.contains { $0.key != me && $0.value > 0 }
    }
    if others { overlaps.add(1, ordering: .sequentiallyConsistent) }
  }

  func leave() {
    let me = ObjectIdentifier(Thread.current)
    depths.withLock { $0[me, default: 1] -= 1 }
  }
}

/// Lets a non-Sendable value cross into a thread body. The concurrency rules exist to check
/// backends that declare themselves thread-safe, so handing them to threads is the point.
struct Unchecked<Wrapped>: @unchecked Sendable {
  let value: Wrapped
  init(_ value: Wrapped) { self.value = value }
}

/// Values a rule must never release: after a deadlock, the stuck threads hold the backend's
/// lock, and releasing a token or subject that needs it would hang the whole run.
enum Quarantine {
  private static let kept = Locked<[Any]>([])

  /// Keeps `values` alive until the process ends.
  static func keep(_ values: Any...) { kept.withLock { $0.append(contentsOf: values) } }
}

/// Threads that meet after each step: ``arrive(abandoned:)`` returns once every party has
/// arrived at the same step, or once `abandoned` says the run is over (a thread stuck in the
/// backend never arrives).
///
/// The threads wait on a condition, not in a loop of `sched_yield`: on a machine with fewer
/// cores than parties, a spinning thread keeps the one it waits for off the processor, and a
/// rule of 459 iterations × 250 meetings took minutes there.
final class StepBarrier: @unchecked Sendable {
  private let condition = NSCondition()
  private let parties: Int
  private var arrived = 0
  private var generation = 0

  init(parties: Int) { self.parties = parties }

  /// Waits until every party has arrived at this step, or until `abandoned` returns true
  /// (checked every 10 ms).
  func arrive(abandoned: () -> Bool) {
    condition.lock()
    defer { condition.unlock() }
    let step = generation
    arrived += 1
    if arrived == parties {
      arrived = 0
      generation += 1
      condition.broadcast()
      return
    }
    while generation == step && !abandoned() {
      _ = condition.wait(until: Date(timeIntervalSinceNow: 0.01))
    }
  }
}
