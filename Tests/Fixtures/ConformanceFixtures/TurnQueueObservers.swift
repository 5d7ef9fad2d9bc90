import ObservationCore

/// An observer list that delivers each write on a later turn, in write order, to the observers
/// registered when the write was made: each write's job holds the handlers it will call.
/// What a cancel does to the writes already waiting is its ``Removal``.
///
/// These are the twins of the open point "values in flight at a cancel" on an asynchronous
/// backend, and a broken backend that declares the second choice; with a ``LaterReplay``, the
/// twins of "which value a replay on a later turn carries".
final class TurnQueueObservers: ObservableValue, CancelsByID {
  enum Removal: String, CaseIterable, Sendable {
    /// A cancel takes the observer out of the registry and out of every waiting write: nothing
    /// reaches it after `cancel()` returns (`immediateCancellation`).
    case dropsPendingWrites
    /// A cancel takes the observer out of the registry at once (its handler goes once the
    /// writes waiting for it have run), and the writes already waiting still reach it:
    /// `cancelsOnLaterTurn`, as an actor that delivers and removes in its own turns does.
    case keepsPendingWrites
    /// A fault: the cancel itself is a job on the queue, so a write made after `cancel()`
    /// returned, before the queue runs, still finds the observer registered and reaches it.
    /// It declares `cancelsOnLaterTurn` too, which allows the writes before the cancel only.
    case removesOnItsTurn
    /// A fault only a script over two subjects of one queue shows: a cancel drops the waiting
    /// writes, as ``dropsPendingWrites`` does, except one made while another subject's job
    /// runs, which waits for a turn of its own, so the writes waiting then still reach the
    /// observer after `cancel()` returned. It declares `immediateCancellation`.
    case parksCancelsFromAnotherSubjectsTurn
  }

  /// Which value `observe`'s replay, made on the next turn, carries.
  enum LaterReplay: String, CaseIterable, Sendable {
    /// The value current when `observe` began; every write made after it follows.
    case valueAtObserve
    /// The value current when the replay's turn comes; the writes made between `observe` and
    /// that turn are not delivered to the new observer (the replay carries their outcome).
    case valueAtItsTurn
  }

  typealias Token = TurnQueueToken<TurnQueueObservers>

  /// The handlers a waiting write will call, by observer, and the order to call them in.
  private struct Recipients {
    var handlers: [Int: (Int) -> Void]
    let order: [Int]
  }

  let removal: Removal
  let replay: LaterReplay?
  private let queue: TurnQueue
  private var stored: Int
  private var handlers: [Int: (Int) -> Void] = [:]
  private var nextID = 0
  private var writes = 0
  /// The writes still waiting for their turn (or under way), by number. The subject owns them,
  /// so that its death releases every handler they hold.
  private var waiting: [Int: Recipients] = [:]
  /// The last write each observer's replay at its turn carried (``LaterReplay/valueAtItsTurn``):
  /// that write and the ones before it are not delivered to it again.
  private var replayedThrough: [Int: Int] = [:]

  init(_ initialValue: Int, queue: TurnQueue, removal: Removal, replay: LaterReplay? = nil) {
    stored = initialValue
    self.queue = queue
    self.removal = removal
    self.replay = replay
  }

  var replaysLater: Bool { replay != nil }

  var value: Int {
    get { stored }
    set {
      stored = newValue
      writes += 1
      let write = writes
      waiting[write] = Recipients(handlers: handlers, order: handlers.keys.sorted())
      queue.schedule(by: self) { [weak self] in self?.deliver(write, newValue) }
    }
  }

  /// Calls each recipient of `write` still there when its call comes: a callback's cancel
  /// reaches the rest of the broadcast too, where the removal takes it out of waiting writes.
  private func deliver(_ write: Int, _ value: Int) {
    guard let order = waiting[write]?.order else { return }
    for id in order where replayedThrough[id].map({ $0 < write }) ?? true {
      if let handler = waiting[write]?.handlers[id] { handler(value) }
    }
    waiting[write] = nil
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    nextID += 1
    let id = nextID
    handlers[id] = handler
    if replay != nil {
      let atObserve = stored
      queue.schedule(by: self) { [weak self] in self?.replay(id, valueAtObserve: atObserve) }
    }
    return Token(owner: self, id: id)
  }

  /// The replay's turn: nothing for an observer cancelled meanwhile.
  private func replay(_ id: Int, valueAtObserve: Int) {
    guard let handler = handlers[id] else { return }
    switch replay {
    case .valueAtItsTurn?:
      replayedThrough[id] = writes
      handler(stored)
    default: handler(valueAtObserve)
    }
  }

  func cancel(_ id: Int) {
    switch removal {
    case .dropsPendingWrites:
      drop(id)
    case .keepsPendingWrites:
      handlers[id] = nil
    case .removesOnItsTurn:
      queue.schedule(by: self) { [weak self] in self?.handlers[id] = nil }
    case .parksCancelsFromAnotherSubjectsTurn:
      if let running = queue.runningOwner, running != ObjectIdentifier(self) {
        queue.schedule(by: self) { [weak self] in self?.drop(id) }
      } else {
        drop(id)
      }
    }
  }

  /// Takes observer `id` out of the registry and out of every waiting write.
  private func drop(_ id: Int) {
    handlers[id] = nil
    replayedThrough[id] = nil
    for write in waiting.keys { waiting[write]?.handlers[id] = nil }
  }
}

/// A backend of ``TurnQueueObservers``: every value, in order, on a later turn, which its
/// ``awaitDelivery(until:timeout:)`` gives.
///
/// It declares `immediateCancellation` for a list that drops the writes waiting for a
/// cancelled observer (or, broken, claims to: ``TurnQueueObservers/Removal/parksCancelsFromAnotherSubjectsTurn``)
/// and `cancelsOnLaterTurn` for the others, or, with `declaringLaterTurn`,
/// `cancelsOnLaterTurn` whatever it does: the word allows the waiting writes, it does not
/// require them.
struct TurnQueueBackend: TurnQueueDriven {
  let removal: TurnQueueObservers.Removal
  let declaringLaterTurn: Bool
  let replay: TurnQueueObservers.LaterReplay?
  let queue = TurnQueue()

  init(
    removal: TurnQueueObservers.Removal, declaringLaterTurn: Bool = false,
    replay: TurnQueueObservers.LaterReplay? = nil
  ) {
    self.removal = removal
    self.declaringLaterTurn = declaringLaterTurn
    self.replay = replay
  }

  var name: String {
    "turn-queue-" + removal.rawValue
      + (declaringLaterTurn && removal == .dropsPendingWrites ? "-declaring-later-turn" : "")
      + (replay.map { "-replaying-" + $0.rawValue } ?? "")
  }

  var capabilities: BackendCapabilities {
    var flags: Set<Capability> = [
      .deliversEveryValue, .preservesObserverOrder, .preservesValueOrderUnderReentrancy,
      .cancelsOnTokenDeinit,
    ]
    let immediate =
      (removal == .dropsPendingWrites && !declaringLaterTurn)
      || removal == .parksCancelsFromAnotherSubjectsTurn
    flags.insert(immediate ? .immediateCancellation : .cancelsOnLaterTurn)
    if replay != nil { flags.formUnion([.replaysCurrentValue, .replaysOnLaterTurn]) }
    // A replay at its turn carries the writes made since `observe`: the new observer does not
    // get each of them.
    if replay == .valueAtItsTurn { flags.remove(.deliversEveryValue) }
    return BackendCapabilities(timing: .asynchronousOrdered, flags, maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> TurnQueueObservers {
    TurnQueueObservers(initialValue, queue: queue, removal: removal, replay: replay)
  }

  /// The correct twins of the open point "values waiting for their turn when an observer is
  /// cancelled": both declare `cancelsOnLaterTurn`; one drops the waiting writes, the other
  /// delivers them.
  static let twins = (
    first: TurnQueueBackend(removal: .dropsPendingWrites, declaringLaterTurn: true),
    second: TurnQueueBackend(removal: .keepsPendingWrites)
  )

  /// The correct twins of the open point "which value a replay on a later turn carries": the
  /// value current when `observe` began, or the one current at the replay's turn.
  static let laterReplayTwins = (
    first: TurnQueueBackend(removal: .dropsPendingWrites, replay: .valueAtObserve),
    second: TurnQueueBackend(removal: .dropsPendingWrites, replay: .valueAtItsTurn)
  )
}
