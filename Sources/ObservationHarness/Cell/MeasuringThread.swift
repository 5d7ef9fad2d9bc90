#if canImport(Glibc)
import CDispatch
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of its own for a counted cell, so that the heap its measured region allocates from
/// does not depend on what the process did before the cell.
///
/// The main thread of a cell process has parsed its arguments and built the backend catalog
/// before the cell starts, and left their freed blocks in the allocator's free lists. Those
/// decided which of malloc's paths a measured allocation took (a cached block, a split of a
/// binned one, or the top of the heap) and so how many instructions it spent: adding an option
/// to the `cell` command moved array subscribe at n = 16 by 0.8%. A thread that has never
/// allocated starts with an empty thread cache, and glibc creates an arena for it, with empty
/// bins and a fresh top: on it, only the cell's own warm-up comes before the measured region.
///
/// The main thread only waits for this one, but valgrind may let it finish starting the thread
/// while the region is being counted; ``InstructionCounter`` counts every thread but the main
/// one for that reason.
enum MeasuringThread {
  /// Runs `body` on a new thread and returns its result once the thread has ended; `nil` when
  /// no thread could be started.
  ///
  /// The thread's stack may grow as far as the main thread's (its stack limit, or 1 GiB when
  /// that is unlimited), so that a measurement that recursed deeply on the main thread still
  /// can.
  static func run<Result>(_ body: () -> Result) -> Result? {
    withoutActuallyEscaping(body) { body in
      var result: Result?
      let work = Work { result = body() }
      var attributes = pthread_attr_t()
      pthread_attr_init(&attributes)
      defer { pthread_attr_destroy(&attributes) }
      pthread_attr_setstacksize(&attributes, stackSize)
      #if canImport(Glibc)
      var thread = pthread_t()
      #else
      var thread: pthread_t? = nil
      #endif
      let retained = Unmanaged.passRetained(work)
      let status = pthread_create(
        &thread, &attributes,
        { pointer in
          Unmanaged<Work>.fromOpaque(pointer!).takeRetainedValue().body()
          return nil
        }, retained.toOpaque())
      guard status == 0 else {
        retained.release()
        return nil
      }
      #if canImport(Glibc)
      pthread_join(thread, nil)
      #else
      pthread_join(thread!, nil)
      #endif
      return result
    }
  }

  /// The main thread's stack limit, at least 1 MiB, or 1 GiB when it is unlimited or larger.
  static var stackSize: Int {
    var limit = rlimit()
    guard getrlimit(stackResource, &limit) == 0, limit.rlim_cur < rlim_t(1 << 30) else {
      return 1 << 30
    }
    return max(Int(limit.rlim_cur), 1 << 20)
  }

  #if canImport(Glibc)
  private static let stackResource = __rlimit_resource_t(RLIMIT_STACK.rawValue)
  #else
  private static let stackResource = RLIMIT_STACK
  #endif

  /// What the new thread runs: a class, so that one reference crosses into the thread.
  private final class Work {
    let body: () -> Void

    init(_ body: @escaping () -> Void) { self.body = body }
  }
}
