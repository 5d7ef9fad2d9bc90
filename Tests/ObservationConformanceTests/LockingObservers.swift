import Foundation
import ObservationCore
import Synchronization

@testable import conformance_fixtures

/// A thread-safe observer list that copies its observers under its lock and calls them after,
/// with one injectable fault for the concurrency rules to catch.
///
/// The lock is recursive, so that a nested write from a callback on the same thread does not
/// deadlock by itself: only another thread's lock, taken in a callback, can.
final class LockingObservers: ObservableValue, RemovesObservers, @unchecked Sendable {
  enum Fault: String, CaseIterable, Sendable {
    /// Observers are called while the lock is held (what THR-05 exists for).
    case callsOutUnderLock
    /// A new observer's replay is made while the lock is held (THR-06).
    case replaysUnderLock
    /// Every 50,000th write (counted over every subject of this fault, in this process) is
    /// stored but never delivered, as a rare lost wake-up is: one THR-01 iteration in 50 meets
    /// it, and the test does not depend on a random draw.
    case losesRareWrites
    /// A write whose delivery overlapped an `observe` or `cancel` made on another thread
    /// delivers its value again, to the list as it is now, so as to reach an observer that
    /// arrived meanwhile: the observers it had already called get the value twice. Only
    /// another thread's change does it, so no single-threaded rule sees it (THR-09 does).
    case redeliversAfterConcurrentChange
    /// A cancel that leaves tombstones over half the list compacts a copy outside the lock and
    /// puts it back: an `observe` or `cancel` another thread made meanwhile is undone. Only
    /// registrations and cancels on several threads at once show it (THR-09's second script).
    case compactsACopyOutsideTheLock
  }

  typealias Token = RemovingToken<LockingObservers>

  /// Writes made by subjects with ``Fault/losesRareWrites``.
  private static let rareWriteCounter = Atomic<Int>(0)

  let fault: Fault?
  private let lock = NSRecursiveLock()
  private var stored: Int
  private var handlers = HandlerList<(Int) -> Void>()
  /// Changes to the list, and the thread that made the last one (the fault's bookkeeping).
  private var changes = 0
  private var lastChanger: ObjectIdentifier?

  init(_ initialValue: Int, fault: Fault?) {
    stored = initialValue
    self.fault = fault
  }

  var value: Int {
    get { lock.withLock { stored } }
    set {
      lock.lock()
      stored = newValue
      if fault == .losesRareWrites
        && Self.rareWriteCounter.add(1, ordering: .relaxed).newValue % 50_000 == 0
      {
        lock.unlock()
        return
      }
      if fault == .callsOutUnderLock {
        for entry in handlers.all { entry.handler(newValue) }
        lock.unlock()
      } else {
        let snapshot = handlers.all
        let changesBefore = changes
        lock.unlock()
        for entry in snapshot { entry.handler(newValue) }
        if fault == .redeliversAfterConcurrentChange { redeliver(newValue, since: changesBefore) }
      }
    }
  }

  /// Delivers `value` again to the list as it is now if another thread changed it since
  /// `changesBefore` (the fault).
  private func redeliver(_ value: Int, since changesBefore: Int) {
    let again = lock.withLock { () -> [(id: Int, handler: (Int) -> Void)] in
      let elsewhere = lastChanger != ObjectIdentifier(Thread.current)
      return changes != changesBefore && elsewhere ? handlers.all : []
    }
    for entry in again { entry.handler(value) }
  }

  /// Counts a change to the list, made on this thread (called with the lock held).
  private func noteChange() {
    changes += 1
    lastChanger = ObjectIdentifier(Thread.current)
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    lock.lock()
    let id = handlers.append(handler)
    noteChange()
    let current = stored
    if fault == .replaysUnderLock {
      handler(current)
      lock.unlock()
    } else {
      lock.unlock()
      handler(current)
    }
    return Token(id: id, owner: self)
  }

  func remove(_ id: Int) {
    guard fault == .compactsACopyOutsideTheLock else {
      lock.withLock {
        handlers.remove(id)
        noteChange()
      }
      return
    }
    var copy = lock.withLock { () -> HandlerList<(Int) -> Void>? in
      handlers.remove(id, compacting: false)
      noteChange()
      return handlers.needsCompaction ? handlers : nil
    }
    guard copy != nil else { return }
    copy!.compact()
    sched_yield()
    lock.withLock { handlers = copy! }
  }
}

/// A backend of ``LockingObservers`` that declares thread safety.
struct LockingBackend: ObservationBackend {
  let fault: LockingObservers.Fault?
  /// Declares handsOffContendedWrites, which a list whose writers each deliver their own value
  /// does not have (THR-08 must say so).
  var claimsHandOff = false

  var name: String {
    "locking" + (fault.map { "-" + $0.rawValue } ?? "")
      + (claimsHandOff ? "-claiming-hand-off" : "")
  }

  var capabilities: BackendCapabilities {
    var flags: Set<Capability> = [
      .replaysCurrentValue, .deliversEveryValue, .synchronousDelivery, .threadSafe,
      .cancelsOnTokenDeinit,
    ]
    if claimsHandOff { flags.insert(.handsOffContendedWrites) }
    return BackendCapabilities(timing: .didSet, flags, maxReentrancyDepth: .bounded(4))
  }

  func makeSubject(initialValue: Int) -> LockingObservers {
    LockingObservers(initialValue, fault: fault)
  }
}
