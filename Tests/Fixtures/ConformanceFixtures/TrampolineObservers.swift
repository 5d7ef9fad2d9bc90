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
/// a callback waits until that subject is next written at the top level: REE-06 and DIFF-01's
/// two-subject scripts catch it. With ``Sharing/sharedDefersOtherSubjectsCancels`` (a fault),
/// the trampoline is shared, but a cancel made while it delivers another subject's write is
/// parked until it drains, so the cancelled observer still gets the writes waiting for it: only
/// DIFF-01's two-subject scripts, where a callback cancels an observer of the other subject,
/// catch it.
final class TrampolineObservers: ObservableValue, CancelsByID {
  enum Sharing: String, CaseIterable, Sendable {
    case perSubject
    case shared
    case sharedFlagOwnQueues
    case sharedDefersOtherSubjectsCancels
  }

  /// What the backend's subjects share with ``Sharing/shared`` and ``Sharing/sharedFlagOwnQueues``.
  final class Trampoline {
    var delivering = false
    /// The subject whose write is being delivered
    /// (``Sharing/sharedDefersOtherSubjectsCancels``).
    weak var broadcasting: TrampolineObservers?
    /// The cancels parked until the trampoline drains
    /// (``Sharing/sharedDefersOtherSubjectsCancels``).
    var parkedCancels: [() -> Void] = []
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
      case .shared, .sharedDefersOtherSubjectsCancels:
        trampoline.waiting.append((self, newValue, nextID))
        guard !trampoline.delivering else { return }
        trampoline.delivering = true
        while !trampoline.waiting.isEmpty {
          let write = trampoline.waiting.removeFirst()
          trampoline.broadcasting = write.subject
          write.subject.broadcast(write.value, through: write.lastID)
        }
        trampoline.broadcasting = nil
        trampoline.delivering = false
        let parked = trampoline.parkedCancels
        trampoline.parkedCancels = []
        for cancel in parked { cancel() }
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
    if sharing == .sharedDefersOtherSubjectsCancels && trampoline.delivering
      && trampoline.broadcasting !== self
    {
      trampoline.parkedCancels.append { [weak self] in self?.cancel(id) }
      return
    }
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
    case .sharedDefersOtherSubjectsCancels: "trampoline-shared-defers-other-subjects-cancels"
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
