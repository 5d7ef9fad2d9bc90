import Foundation

/// A generation counter that threads can sleep on until it moves: ``signal()`` moves it and
/// wakes every sleeper, ``wait(whileGeneration:upTo:)`` sleeps while it has not moved.
///
/// Neither allocates, so a signal can sit on a path whose allocations are measured.
final class WakeSignal: @unchecked Sendable {
  private let condition = NSCondition()
  /// How many times ``signal()`` was called; read and written under `condition`'s lock.
  private var count: UInt64 = 0

  /// The current generation, to pass to ``wait(whileGeneration:upTo:)``.
  var generation: UInt64 {
    condition.lock()
    defer { condition.unlock() }
    return count
  }

  /// Moves the generation and wakes every thread waiting for it to move.
  func signal() {
    condition.lock()
    count &+= 1
    condition.broadcast()
    condition.unlock()
  }

  /// Sleeps until the generation is no longer `generation` or `deadline` passes, whichever
  /// comes first.
  func wait(whileGeneration generation: UInt64, upTo deadline: ContinuousClock.Instant) {
    let remaining = ContinuousClock.now.duration(to: deadline)
    guard remaining > .zero else { return }
    let seconds =
      Double(remaining.components.seconds)
      + Double(remaining.components.attoseconds) / 1e18
    let wallDeadline = Date(timeIntervalSinceNow: seconds)
    condition.lock()
    defer { condition.unlock() }
    while count == generation {
      if !condition.wait(until: wallDeadline) { return }
    }
  }
}
