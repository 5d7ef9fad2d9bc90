import Foundation

/// Runs a test's body on a thread of its own, for the tests of backends that need the global
/// concurrent executor while the test waits: `share()` takes from its source in a task there.
/// A synchronous test body runs on one of the cooperative pool's threads, which are as many as
/// the cores; on a 2-core machine two such tests waiting at once would leave `share()` no
/// thread to run on until their waits time out.
enum OwnThread {
  /// Runs `body` on a new thread; the caller's task is suspended meanwhile.
  ///
  /// - Complexity: `body`'s, plus a thread's creation.
  static func run(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        body()
        continuation.resume()
      }
    }
  }
}
