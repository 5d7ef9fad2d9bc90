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
/// its copy, and goes to the observers registered before it was made. With a ``Replay``, the
/// list replays, and its two replays are the twins of the value a replay carries when writes
/// on other threads race `observe`.
final class SnapshotObservers: ObservableValue, RemovesObservers, @unchecked Sendable {
  typealias Token = RemovingToken<SnapshotObservers>

  /// What a new observer gets of the writes other threads make while its replay is under way.
  /// Until the replay returns, their copies pass it by (so that no newer value reaches it
  /// before the replayed one); then, before `observe` returns, it gets:
  enum Replay: String, CaseIterable, Sendable {
    /// The last of them: the replay catches up with the latest value, skipping the others
    /// (which were set before `observe` returned, so not owed).
    case latest
    /// Every one of them, in the order they were made.
    case everyWrite
  }

  /// An observer, and the state of its replay (guarded by the list's lock).
  final class Registration {
    let handler: (Int) -> Void
    /// The thread making its replay, until the replay and what it caught up are delivered.
    var replaying: ObjectIdentifier?
    /// The number of the last write it has been given, or is being given on the replaying
    /// thread.
    var deliveredThrough = 0
    /// Writes another thread made while it was replaying, with their numbers.
    var missed: [(number: Int, value: Int)] = []

    init(_ handler: @escaping (Int) -> Void) { self.handler = handler }
  }

  /// A write, numbered, with the last id registered before it.
  private typealias Write = (value: Int, number: Int, lastID: Int)

  let replay: Replay?
  private let lock = NSLock()
  private var stored: Int
  private var writes = 0
  private var registrations = HandlerList<Registration>()
  /// For each thread delivering, the writes its callbacks made.
  private var queued: [ObjectIdentifier: [Write]] = [:]

  init(_ initialValue: Int, replay: Replay?) {
    stored = initialValue
    self.replay = replay
  }

  var value: Int {
    get { lock.withLock { stored } }
    set {
      let thread = ObjectIdentifier(Thread.current)
      lock.lock()
      stored = newValue
      writes += 1
      let write = (value: newValue, number: writes, lastID: registrations.lastID)
      if queued[thread] != nil {
        queued[thread]!.append(write)
        lock.unlock()
        return
      }
      queued[thread] = []
      var next: Write? = write
      while let write = next {
        let copy = recipients(of: write, on: thread)
        lock.unlock()
        for registration in copy { registration.handler(write.value) }
        lock.lock()
        next = queued[thread]!.isEmpty ? nil : queued[thread]!.removeFirst()
      }
      queued[thread] = nil
      lock.unlock()
    }
  }

  /// The observers `write`, made on `thread`, is called on now; an observer replaying on
  /// another thread keeps it for after its replay instead. Called with the lock held.
  private func recipients(of write: Write, on thread: ObjectIdentifier) -> [Registration] {
    registrations.handlers(through: write.lastID).filter { registration in
      guard let replaying = registration.replaying else { return true }
      // Its own thread's write (from the replay callback) reaches it at once, unless writes
      // of other threads wait before it.
      if replaying == thread && (replay == .latest || registration.missed.isEmpty) {
        registration.deliveredThrough = write.number
        return true
      }
      registration.missed.append((write.number, write.value))
      return false
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    let registration = Registration(handler)
    let (id, current) = lock.withLock {
      if replay != nil {
        registration.replaying = ObjectIdentifier(Thread.current)
        registration.deliveredThrough = writes
      }
      return (registrations.append(registration), stored)
    }
    let token = Token(id: id, owner: self)
    guard replay != nil else { return token }
    var values = [current]
    while !values.isEmpty {
      for value in values { handler(value) }
      values = lock.withLock { caughtUp(registration) }
    }
    return token
  }

  /// What `registration` is given next of the writes it missed while replaying, or nothing,
  /// when its replay is over. Called with the lock held.
  private func caughtUp(_ registration: Registration) -> [Int] {
    let waiting = registration.missed.filter { $0.number > registration.deliveredThrough }
    registration.missed = []
    guard let last = waiting.last else {
      registration.replaying = nil
      return []
    }
    registration.deliveredThrough = last.number
    return replay == .latest ? [last.value] : waiting.map(\.value)
  }

  func remove(_ id: Int) {
    // The handler goes after the lock is let go: its captures may cancel on release.
    let removed = lock.withLock { registrations.remove(id) }
    withExtendedLifetime(removed) {}
  }
}

/// The backend of ``SnapshotObservers``: every value, synchronously, from any thread, in
/// registration order within a broadcast, nested writes queued; with a replay, the current
/// value before `observe` returns.
struct SnapshotBackend: ObservationBackend {
  var replay: SnapshotObservers.Replay? = nil

  var name: String {
    "snapshot-delivering" + (replay.map { "-replaying-" + $0.rawValue } ?? "")
  }

  var capabilities: BackendCapabilities {
    var flags: Set<Capability> = [
      .deliversEveryValue, .synchronousDelivery, .threadSafe, .cancelsOnTokenDeinit,
      .preservesObserverOrder, .preservesValueOrderUnderReentrancy,
    ]
    if replay != nil { flags.insert(.replaysCurrentValue) }
    return BackendCapabilities(timing: .didSet, flags, maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> SnapshotObservers {
    SnapshotObservers(initialValue, replay: replay)
  }
}
