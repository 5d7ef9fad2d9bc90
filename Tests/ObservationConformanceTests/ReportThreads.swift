import Foundation
import Synchronization

/// Threads of their own for whole-suite runs, so that the rules that mostly wait (THR-05 and
/// THR-06 pause 20 µs two hundred times per iteration, 459 iterations) do not hold one of the
/// cooperative pool's threads, which are as many as the cores: on a 2-core machine two
/// sleeping suites would stop every other test.
///
/// At most ``width`` suites run at once: enough to overlap one suite's waits with another's
/// work, few enough that a stochastic rule's threads still meet as they do alone.
enum ReportThreads {
  /// How many suites run at once.
  static let width = 4

  private static let slots = DispatchSemaphore(value: width)

  /// The result of `body`, run on a new thread (8 MiB of stack, as a main thread has) once one
  /// of the ``width`` slots is free; the caller's task is suspended meanwhile.
  ///
  /// - Complexity: `body`'s, plus a thread's creation.
  static func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
      let thread = Thread {
        slots.wait()
        let result = body()
        slots.signal()
        continuation.resume(returning: result)
      }
      thread.stackSize = 1 << 23
      thread.start()
    }
  }
}
