import Foundation
import Synchronization

/// Whether the rule now running is getting anywhere: the steps it has made and the bounded
/// waits it is in.
///
/// A step is one of the backend's own operations or callbacks, as ``TestSubject`` sees them: a
/// call into the backend (`set`, `observe`, a read, a mutation, `complete`) as it starts and as
/// it returns, a callback to a handler registered through it, a token's cancel or release
/// (``ProgressToken``), before and after the backend's work. A rule's long loops make steps
/// however the rule writes them, with plain handlers or with a ``Recorder``.
///
/// An isolated run's child reports progress while either moves (``ConformanceChild``), and the
/// runner kills a rule only after its stall limit without any
/// (``IsolatedConformanceRunner/stallTimeout``, or longer for a rule that has shown longer
/// gaps): a backend that spins or deadlocks in `set` makes no step, while a slow but correct
/// one keeps making them, and a rule waiting for a delivery up to its own timeout is not stalled
/// before that timeout has passed. A step is a relaxed atomic add.
enum RuleProgress {
  /// Steps made since the process started.
  private static let steps = Atomic<Int>(0)
  /// The uptime, in nanoseconds, until which the rule is in a bounded wait of its own; 0 when
  /// it is in none.
  private static let waitDeadline = Atomic<UInt64>(0)

  /// Records a step.
  static func step() { steps.add(1, ordering: .relaxed) }

  /// Returns `value`, recording a step once it has been computed.
  static func stepping<T>(_ value: @autoclosure () -> T) -> T {
    defer { step() }
    return value()
  }

  /// Runs `body`, a wait that gives up by itself after `timeout` seconds, as progress until
  /// then (plus a second for the giving up).
  @discardableResult
  static func waiting<T>(upTo timeout: TimeInterval, _ body: () -> T) -> T {
    let previous = waitDeadline.load(ordering: .relaxed)
    let seconds = max(0, min(timeout + 1, 1e6))
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    waitDeadline.store(max(previous, deadline), ordering: .relaxed)
    defer {
      waitDeadline.store(previous, ordering: .relaxed)
      step()
    }
    return body()
  }

  /// Runs `body`, a wait that gives up by itself after `timeout`, as progress until then.
  @discardableResult
  static func waiting<T>(upTo timeout: Duration, _ body: () -> T) -> T {
    let (seconds, attoseconds) = timeout.components
    return waiting(upTo: Double(seconds) + Double(attoseconds) * 1e-18, body)
  }

  /// What a heartbeat samples: the steps so far, and whether a bounded wait is still within its
  /// timeout.
  static var sample: (steps: Int, waiting: Bool) {
    (
      steps.load(ordering: .relaxed),
      DispatchTime.now().uptimeNanoseconds < waitDeadline.load(ordering: .relaxed)
    )
  }
}
