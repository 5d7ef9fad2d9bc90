import Foundation
import ObservationCore

/// A thread-safe observer list that either calls its observers while holding its own lock
/// (the fault THR-05 exists for) or copies them under the lock and calls them after.
///
/// The lock is recursive, so that a nested write from a callback on the same thread does not
/// deadlock by itself: only another thread's lock, taken in a callback, can.
final class LockingObservers: ObservableValue, @unchecked Sendable {
  final class Token: ObservationToken {
    let id: Int
    weak var owner: LockingObservers?
    init(id: Int, owner: LockingObservers) {
      self.id = id
      self.owner = owner
    }
    deinit { cancel() }
    func cancel() { owner?.remove(id) }
  }

  let callsOutUnderLock: Bool
  private let lock = NSRecursiveLock()
  private var stored: Int
  private var handlers: [(id: Int, handler: (Int) -> Void)] = []
  private var nextID = 0

  init(_ initialValue: Int, callsOutUnderLock: Bool) {
    stored = initialValue
    self.callsOutUnderLock = callsOutUnderLock
  }

  var value: Int {
    get { lock.withLock { stored } }
    set {
      lock.lock()
      stored = newValue
      if callsOutUnderLock {
        for entry in handlers { entry.handler(newValue) }
        lock.unlock()
      } else {
        let snapshot = handlers
        lock.unlock()
        for entry in snapshot { entry.handler(newValue) }
      }
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    let (id, current) = lock.withLock {
      nextID += 1
      handlers.append((nextID, handler))
      return (nextID, stored)
    }
    handler(current)
    return Token(id: id, owner: self)
  }

  fileprivate func remove(_ id: Int) {
    lock.withLock { handlers.removeAll { $0.id == id } }
  }
}

/// A backend of ``LockingObservers`` that declares thread safety.
struct LockingBackend: ObservationBackend {
  let callsOutUnderLock: Bool

  var name: String { callsOutUnderLock ? "locking-calls-out-under-lock" : "locking" }

  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [.replaysCurrentValue, .synchronousDelivery, .threadSafe, .cancelsOnTokenDeinit],
      maxReentrancyDepth: .bounded(4))
  }

  func makeSubject(initialValue: Int) -> LockingObservers {
    LockingObservers(initialValue, callsOutUnderLock: callsOutUnderLock)
  }
}
