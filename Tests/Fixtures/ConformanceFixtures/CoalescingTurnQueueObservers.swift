import ObservationCore

/// An observer list that coalesces the writes made between two of its turns, as `Observations`
/// does: a write stores the value and, unless a turn is already waiting, schedules one; the
/// turn hands the latest value to each observer once. Its ``Recipients`` say which observers a
/// turn reaches.
///
/// These are the twins of the open point "a write still pending when an observer subscribes"
/// on a transactional backend: one that reaches the observers registered at the turn (the
/// state as of its turn) and one that reaches only those registered at the latest write.
final class CoalescingTurnQueueObservers: ObservableValue, CancelsByID {
  /// Which observers a turn hands the latest value to.
  enum Recipients: String, CaseIterable, Sendable {
    /// The observers registered when the turn comes: one that subscribed after the latest
    /// write, before its turn, gets it.
    case registeredAtTheTurn
    /// The observers registered when the latest write was made (and still registered at the
    /// turn): one that subscribed after it never gets it, as with `receive(on:)`.
    case registeredAtTheLatestWrite
  }

  typealias Token = TurnQueueToken<CoalescingTurnQueueObservers>

  let recipients: Recipients
  private let queue: TurnQueue
  private var stored: Int
  private var handlers: [Int: (Int) -> Void] = [:]
  private var nextID = 0
  /// Whether a turn is waiting: the writes until it runs are coalesced.
  private var turnWaiting = false
  /// The observers registered at the latest write, by number, in registration order.
  private var registeredAtLatestWrite: [Int] = []

  init(_ initialValue: Int, queue: TurnQueue, recipients: Recipients) {
    stored = initialValue
    self.queue = queue
    self.recipients = recipients
  }

  var value: Int {
    get { stored }
    set {
      stored = newValue
      registeredAtLatestWrite = handlers.keys.sorted()
      guard !turnWaiting else { return }
      turnWaiting = true
      queue.schedule { [weak self] in self?.takeTurn() }
    }
  }

  /// Hands the latest value to each recipient still registered when its call comes; a write a
  /// callback makes schedules the next turn.
  private func takeTurn() {
    turnWaiting = false
    let value = stored
    let ids =
      recipients == .registeredAtTheTurn ? handlers.keys.sorted() : registeredAtLatestWrite
    for id in ids { handlers[id]?(value) }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    nextID += 1
    handlers[nextID] = handler
    return Token(owner: self, id: nextID)
  }

  func cancel(_ id: Int) { handlers[id] = nil }
}

/// A backend of ``CoalescingTurnQueueObservers``: transactional, in registration order,
/// cancellation immediate; its turns come when the suite waits for delivery.
struct CoalescingTurnQueueBackend: TurnQueueDriven {
  let recipients: CoalescingTurnQueueObservers.Recipients
  let queue = TurnQueue()

  var name: String {
    "coalescing-turn-queue"
      + (recipients == .registeredAtTheLatestWrite ? "-to-observers-of-the-latest-write" : "")
  }

  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .transactional,
      [.preservesObserverOrder, .immediateCancellation, .cancelsOnTokenDeinit],
      maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> CoalescingTurnQueueObservers {
    CoalescingTurnQueueObservers(initialValue, queue: queue, recipients: recipients)
  }

  /// The correct twins of the open point "a write still pending when an observer subscribes".
  static let twins = (
    first: CoalescingTurnQueueBackend(recipients: .registeredAtTheTurn),
    second: CoalescingTurnQueueBackend(recipients: .registeredAtTheLatestWrite)
  )
}
