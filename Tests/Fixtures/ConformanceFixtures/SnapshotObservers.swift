import Foundation
import ObservationCore

/// A thread-safe observer list that copies its observers under its lock and calls the copy
/// after letting the lock go, as most hand-written thread-safe lists do: writers on different
/// threads deliver at the same time.
///
/// It is correct, and it makes the other choice at each of the open points of threads from
/// ``SerializingObservers`` (the thread rows' twins):
/// - callbacks to one observer overlap when threads write at once (no `serializedDelivery`);
/// - two observers may get overlapping writes in different orders, each the order its
///   callbacks started in;
/// - a write reaches every observer of its copy, one whose cancel returned on another thread
///   meanwhile too (no `immediateCancellation`).
///
/// A write made from a callback is queued until the outermost `set` on that thread has called
/// its copy, and goes to the observers registered before it was made.
final class SnapshotObservers: ObservableValue, RemovesObservers, @unchecked Sendable {
  typealias Token = RemovingToken<SnapshotObservers>

  private let lock = NSLock()
  private var stored: Int
  private var handlers = HandlerList<(Int) -> Void>()
  /// For each thread delivering, the writes its callbacks made, each with the last id
  /// registered before it.
  private var queued: [ObjectIdentifier: [(value: Int, lastID: Int)]] = [:]

  init(_ initialValue: Int) { stored = initialValue }

  var value: Int {
    get { lock.withLock { stored } }
    set {
      let thread = ObjectIdentifier(Thread.current)
      lock.lock()
      stored = newValue
      let write = (value: newValue, lastID: handlers.lastID)
      if queued[thread] != nil {
        queued[thread]!.append(write)
        lock.unlock()
        return
      }
      queued[thread] = []
      var next: (value: Int, lastID: Int)? = write
      while let write = next {
        let copy = handlers.handlers(through: write.lastID)
        lock.unlock()
        for handler in copy { handler(write.value) }
        lock.lock()
        next = queued[thread]!.isEmpty ? nil : queued[thread]!.removeFirst()
      }
      queued[thread] = nil
      lock.unlock()
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    lock.withLock { Token(id: handlers.append(handler), owner: self) }
  }

  func remove(_ id: Int) {
    // The handler goes after the lock is let go: its captures may cancel on release.
    let removed = lock.withLock { handlers.remove(id) }
    withExtendedLifetime(removed) {}
  }
}

/// The backend of ``SnapshotObservers``: every value, synchronously, from any thread, in
/// registration order within a broadcast, nested writes queued.
struct SnapshotBackend: ObservationBackend {
  var name: String { "snapshot-delivering" }

  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .deliversEveryValue, .synchronousDelivery, .threadSafe, .cancelsOnTokenDeinit,
        .preservesObserverOrder, .preservesValueOrderUnderReentrancy,
      ],
      maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> SnapshotObservers { SnapshotObservers(initialValue) }
}
