import Foundation
import ObservationCore

/// A thread-safe observer list that serializes delivery with an emitter loop: a write made
/// while another is being delivered (on any thread, or nested in a callback) is queued, and
/// whoever is delivering delivers it next, before its own `set` returns.
///
/// The delivering thread looks each observer up when its turn comes, so a cancel that returned
/// on another thread before the delivery reached its observer is respected. Declaring
/// `handsOffContendedWrites`, it is one of the twins of the thread rows (with
/// ``SnapshotObservers``): one order of the writes for every observer, callbacks that never
/// overlap, and a write that overlapped a cancel not delivered to the cancelled observer once
/// the cancel returned.
final class SerializingObservers: ObservableValue, RemovesObservers, @unchecked Sendable {
  typealias Token = RemovingToken<SerializingObservers>

  /// With the fault, a nested write on the delivering thread is delivered at once by a nested
  /// drain, which marks the list idle when it ends although the outer delivery goes on: a
  /// write from another thread then delivers at the same time (THR-07).
  let nestedWriteEndsDrain: Bool
  /// With the fault, the delivering thread that finds the queue empty lets go of the lock for
  /// a moment before it marks the list idle, and does not look again: a writer that queues a
  /// value in that moment sees a delivery in progress and returns, and its value is never
  /// delivered (a lost wake-up, THR-01).
  let losesWakeUp: Bool
  /// With the fault, a value queued by another thread (a hand-off) waits on a stack, and the
  /// delivering thread takes the newest first: a writer whose sets pile up while another
  /// thread delivers has them delivered in reverse. Every value still arrives, once, one
  /// callback at a time, before the delivering thread's `set` returns; nested writes stay in
  /// order. Only the order of one thread's writes is wrong (THR-09).
  let deliversHandOffsLastFirst: Bool
  private let lock = NSLock()
  private var stored: Int
  private var handlers = HandlerList<(Int) -> Void>()
  /// Queued writes, each with the last id registered before it: a write goes only to the
  /// observers registered before it was made, though its delivery may come later.
  private var queue: [(value: Int, lastID: Int)] = []
  /// Hand-offs, with ``deliversHandOffsLastFirst``.
  private var handOffs: [(value: Int, lastID: Int)] = []
  private var draining = false
  private var drainer: Thread?

  init(
    _ initialValue: Int, nestedWriteEndsDrain: Bool, losesWakeUp: Bool = false,
    deliversHandOffsLastFirst: Bool = false
  ) {
    stored = initialValue
    self.nestedWriteEndsDrain = nestedWriteEndsDrain
    self.losesWakeUp = losesWakeUp
    self.deliversHandOffsLastFirst = deliversHandOffsLastFirst
  }

  var value: Int {
    get { lock.withLock { stored } }
    set {
      lock.lock()
      stored = newValue
      let entry = (value: newValue, lastID: handlers.lastID)
      if draining && !(nestedWriteEndsDrain && drainer == Thread.current) {
        if deliversHandOffsLastFirst && drainer != Thread.current {
          handOffs.append(entry)
        } else {
          queue.append(entry)
        }
        lock.unlock()
        return
      }
      queue.append(entry)
      draining = true
      drainer = Thread.current
      drainQueue()
    }
  }

  /// Delivers the queue; called with the lock held, returns with it released.
  private func drainQueue() {
    while !queue.isEmpty || !handOffs.isEmpty {
      let next = queue.isEmpty ? handOffs.removeLast() : queue.removeFirst()
      var called = 0
      while let (id, handler) = handlers.first(after: called, through: next.lastID) {
        called = id
        lock.unlock()
        handler(next.value)
        lock.lock()
      }
    }
    if losesWakeUp {
      lock.unlock()
      usleep(5)
      lock.lock()
    }
    draining = false
    drainer = nil
    lock.unlock()
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    lock.withLock {
      Token(id: handlers.append(handler), owner: self)
    }
  }

  func remove(_ id: Int) {
    // The handler goes after the lock is let go: its captures may cancel on release.
    let removed = lock.withLock { handlers.remove(id) }
    withExtendedLifetime(removed) {}
  }
}

/// A backend of ``SerializingObservers`` that declares thread safety and serialized delivery.
struct SerializingBackend: ObservationBackend {
  let nestedWriteEndsDrain: Bool
  /// Declares synchronousDelivery, which a `set` that queues its value for another thread
  /// does not have (THR-01 must say so).
  var claimsSynchronousDelivery = false
  /// Declares what the list is: synchronousDelivery qualified by handsOffContendedWrites.
  var declaresHandOff = false
  /// Builds the list with its lost wake-up (``SerializingObservers/losesWakeUp``).
  var losesWakeUp = false
  /// Builds the list that delivers hand-offs newest first
  /// (``SerializingObservers/deliversHandOffsLastFirst``).
  var deliversHandOffsLastFirst = false

  var name: String {
    "serializing" + (nestedWriteEndsDrain ? "-nested-write-ends-drain" : "")
      + (claimsSynchronousDelivery ? "-claiming-synchronous-delivery" : "")
      + (declaresHandOff ? "-handing-off" : "") + (losesWakeUp ? "-losing-wake-ups" : "")
      + (deliversHandOffsLastFirst ? "-delivering-hand-offs-last-first" : "")
  }

  var capabilities: BackendCapabilities {
    var flags: Set<Capability> = [.deliversEveryValue, .threadSafe, .serializedDelivery]
    if claimsSynchronousDelivery || declaresHandOff { flags.insert(.synchronousDelivery) }
    if declaresHandOff { flags.insert(.handsOffContendedWrites) }
    return BackendCapabilities(timing: .didSet, flags, maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> SerializingObservers {
    SerializingObservers(
      initialValue, nestedWriteEndsDrain: nestedWriteEndsDrain, losesWakeUp: losesWakeUp,
      deliversHandOffsLastFirst: deliversHandOffsLastFirst)
  }
}
