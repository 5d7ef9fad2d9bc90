import ObservationCore

/// A synchronous observer list that queues the writes made while a delivery is under way and
/// delivers them from the outermost call, where "under way" is this subject's delivery
/// (``Sharing/perSubject``) or any delivery of the backend's subjects (``Sharing/shared``, one
/// trampoline for every subject, as a scheduler or a run loop gives).
///
/// They are the twins of the open point "a write to another subject made from a callback":
/// delivered at once, or when the outermost delivery returns. With
/// ``Sharing/sharedFlagOwnQueues`` (a fault), the flag is shared but each subject keeps its own
/// queue, and the delivering subject drains only its own: a write to another subject made from
/// a callback waits until that subject is next written at the top level. Only REE-06 writes
/// another subject from a callback.
final class TrampolineObservers: ObservableValue, CancelsByID {
  enum Sharing: String, CaseIterable, Sendable {
    case perSubject
    case shared
    case sharedFlagOwnQueues
  }

  /// What the backend's subjects share with ``Sharing/shared`` and ``Sharing/sharedFlagOwnQueues``.
  final class Trampoline {
    var delivering = false
    /// With ``Sharing/shared``, the writes waiting, of any subject.
    var waiting: [(subject: TrampolineObservers, value: Int, lastID: Int)] = []
  }

  typealias Token = TurnQueueToken<TrampolineObservers>

  let sharing: Sharing
  private let trampoline: Trampoline
  private var stored: Int
  /// Observers in registration order (ids grow along the list); a cancelled one leaves a
  /// tombstone until the list compacts, outside delivery.
  private var observers: [(id: Int, handler: ((Int) -> Void)?)] = []
  private var tombstones = 0
  private var nextID = 0
  private var delivering = false
  private var waiting: [(value: Int, lastID: Int)] = []

  init(_ initialValue: Int, sharing: Sharing, trampoline: Trampoline) {
    stored = initialValue
    self.sharing = sharing
    self.trampoline = trampoline
  }

  var value: Int {
    get { stored }
    set {
      stored = newValue
      switch sharing {
      case .perSubject:
        waiting.append((newValue, nextID))
        guard !delivering else { return }
        delivering = true
        while !waiting.isEmpty {
          let write = waiting.removeFirst()
          broadcast(write.value, through: write.lastID)
        }
        delivering = false
      case .shared:
        trampoline.waiting.append((self, newValue, nextID))
        guard !trampoline.delivering else { return }
        trampoline.delivering = true
        while !trampoline.waiting.isEmpty {
          let write = trampoline.waiting.removeFirst()
          write.subject.broadcast(write.value, through: write.lastID)
        }
        trampoline.delivering = false
      case .sharedFlagOwnQueues:
        waiting.append((newValue, nextID))
        guard !trampoline.delivering else { return }
        trampoline.delivering = true
        while !waiting.isEmpty {
          let write = waiting.removeFirst()
          broadcast(write.value, through: write.lastID)
        }
        trampoline.delivering = false
      }
    }
  }

  /// Calls the live observers registered by `lastID`, in order; one cancelled meanwhile is
  /// skipped.
  private func broadcast(_ value: Int, through lastID: Int) {
    var index = 0
    while index < observers.count && observers[index].id <= lastID {
      observers[index].handler?(value)
      index += 1
    }
    compact()
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    nextID += 1
    observers.append((nextID, handler))
    return Token(owner: self, id: nextID)
  }

  func cancel(_ id: Int) {
    // Ids grow along the list: binary search.
    var low = 0
    var high = observers.count
    while low < high {
      let middle = (low + high) / 2
      if observers[middle].id < id { low = middle + 1 } else { high = middle }
    }
    guard low < observers.count && observers[low].id == id && observers[low].handler != nil
    else { return }
    observers[low].handler = nil
    tombstones += 1
    compact()
  }

  /// Drops the tombstones once they are half the list, when no delivery of this subject or of
  /// the trampoline is under way (indices stay put during a broadcast).
  private func compact() {
    guard !delivering && !trampoline.delivering && tombstones * 2 > observers.count else {
      return
    }
    observers.removeAll { $0.handler == nil }
    tombstones = 0
  }
}

/// A backend of ``TrampolineObservers``: synchronous, every value, registration order, nested
/// writes queued, cancellation immediate and on release.
struct TrampolineBackend: ObservationBackend {
  let sharing: TrampolineObservers.Sharing
  let trampoline = TrampolineObservers.Trampoline()

  var name: String {
    switch sharing {
    case .perSubject: "trampoline-per-subject"
    case .shared: "trampoline-shared"
    case .sharedFlagOwnQueues: "trampoline-shared-flag-own-queues"
    }
  }

  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .deliversEveryValue, .synchronousDelivery, .preservesObserverOrder,
        .preservesValueOrderUnderReentrancy, .immediateCancellation, .cancelsOnTokenDeinit,
      ], maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> TrampolineObservers {
    TrampolineObservers(initialValue, sharing: sharing, trampoline: trampoline)
  }
}
