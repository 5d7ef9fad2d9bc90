import ObservationCore

/// An asynchronous observer list that delivers each write on a later turn, in write order, to
/// the observers registered when it was made, and still delivers the writes waiting when the
/// subject is released (a flush): each write's job holds its recipients' slots, not the
/// subject. A cancel empties the observer's slot, so nothing reaches it afterwards, whether or
/// not its subject is still alive.
///
/// It is the second of the twins of the open point "writes still waiting when an
/// asynchronous subject is released" (``TurnQueueObservers`` drops them). With
/// ``cancelsThroughTheSubject``, a fault: a token reaches its slot only through the subject,
/// so a cancel made after the subject was released does nothing and the writes waiting then
/// still reach the cancelled observer. Only MEM-08 releases a subject with writes waiting and
/// then cancels.
final class FlushingObservers: ObservableValue {
  /// One observer's handler, shared by the subject and by every waiting write that will call
  /// it; the token empties it.
  final class Slot {
    var handler: ((Int) -> Void)?
    init(_ handler: @escaping (Int) -> Void) { self.handler = handler }
  }

  final class Token: ObservationToken {
    weak var owner: FlushingObservers?
    weak var slot: Slot?
    let id: Int
    let throughTheSubject: Bool
    init(owner: FlushingObservers, slot: Slot, id: Int, throughTheSubject: Bool) {
      self.owner = owner
      self.slot = slot
      self.id = id
      self.throughTheSubject = throughTheSubject
    }
    deinit { cancel() }
    func cancel() {
      if !throughTheSubject { slot?.handler = nil }
      owner?.cancel(id)
    }
  }

  let cancelsThroughTheSubject: Bool
  private let queue: TurnQueue
  private var stored: Int
  /// The live observers' slots, in registration order.
  private var slots: [(id: Int, slot: Slot)] = []
  private var nextID = 0

  init(_ initialValue: Int, queue: TurnQueue, cancelsThroughTheSubject: Bool) {
    stored = initialValue
    self.queue = queue
    self.cancelsThroughTheSubject = cancelsThroughTheSubject
  }

  var value: Int {
    get { stored }
    set {
      stored = newValue
      let recipients = slots.map(\.slot)
      queue.schedule {
        for slot in recipients { slot.handler?(newValue) }
      }
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    nextID += 1
    let slot = Slot(handler)
    slots.append((nextID, slot))
    return Token(
      owner: self, slot: slot, id: nextID, throughTheSubject: cancelsThroughTheSubject)
  }

  private func cancel(_ id: Int) {
    guard let index = slots.firstIndex(where: { $0.id == id }) else { return }
    slots.remove(at: index).slot.handler = nil
  }
}

/// A backend of ``FlushingObservers``: every value, in order, on a later turn, cancellation
/// immediate.
struct FlushingBackend: TurnQueueDriven {
  let cancelsThroughTheSubject: Bool
  let queue = TurnQueue()

  var name: String {
    "flushing" + (cancelsThroughTheSubject ? "-cancelling-through-the-subject" : "")
  }

  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .asynchronousOrdered,
      [
        .deliversEveryValue, .preservesObserverOrder, .preservesValueOrderUnderReentrancy,
        .immediateCancellation, .cancelsOnTokenDeinit,
      ], maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> FlushingObservers {
    FlushingObservers(
      initialValue, queue: queue, cancelsThroughTheSubject: cancelsThroughTheSubject)
  }
}
