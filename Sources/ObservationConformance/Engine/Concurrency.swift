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
      start.wait()
      body(index)
      group.leave()
    }
    thread.stackSize = 1 << 22
    thread.start()
  }
  for _ in 0..<threads { start.signal() }
  return group.wait(timeout: .now() + timeout) == .success
}

/// A flag and counters shared between threads.
final class SharedCounters: @unchecked Sendable {
  let inFlight = Atomic<Int>(0)
  let maxInFlight = Atomic<Int>(0)
  let count = Atomic<Int>(0)
  let flag = Atomic<Bool>(false)

  func enter() {
    let now = inFlight.add(1, ordering: .sequentiallyConsistent).newValue
    var seen = maxInFlight.load(ordering: .sequentiallyConsistent)
    while now > seen {
      let (exchanged, original) = maxInFlight.compareExchange(
        expected: seen, desired: now, ordering: .sequentiallyConsistent)
      if exchanged { break }
      seen = original
    }
  }

  func leave() { inFlight.subtract(1, ordering: .sequentiallyConsistent) }
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
