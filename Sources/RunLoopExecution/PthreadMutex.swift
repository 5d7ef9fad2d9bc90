import Foundation

/// A value that threads share behind a pthread mutex: `Synchronization`'s `Mutex` for code the
/// thread sanitizer checks.
///
/// On Linux a contended `Mutex` waits and wakes through a futex inside the prebuilt
/// `Synchronization` library, where the sanitizer sees no ordering, so every access through it
/// from a second thread is reported as a race. It sees a pthread mutex's lock and unlock (they
/// are intercepted), as for `SynchronizedDenseObservers` in DenseBackend.
package final class PthreadMutex<Value>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// Read and written only with `mutex` held.
  private let value: UnsafeMutablePointer<Value>

  /// A mutex guarding `initialValue`.
  package init(_ initialValue: Value) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    value = .allocate(capacity: 1)
    value.initialize(to: initialValue)
  }

  deinit {
    value.deinitialize(count: 1)
    value.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Calls `body` with the value, the mutex held; `body` must not call out to code that may
  /// take the same mutex.
  ///
  /// - Complexity: O(1) besides `body`; no allocation.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}
