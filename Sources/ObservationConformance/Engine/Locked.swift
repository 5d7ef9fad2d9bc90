import Foundation

/// A value guarded by a pthread-based lock.
///
/// The engine uses `NSLock` rather than `Synchronization.Mutex` here on purpose: on Linux,
/// `Mutex` is built on futexes the thread sanitizer does not see, so every access through it is
/// reported as a race, and the concurrency rules must run clean under `--sanitize=thread`.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
