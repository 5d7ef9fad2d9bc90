import ObservationCore

/// The turns of one backend value's subjects: a write schedules its delivery here, and it runs
/// only when the suite gives the backend its turn, as a per-write hop to a run loop does.
final class DeliveryLoop {
  private var jobs: [() -> Void] = []

  func schedule(_ job: @escaping () -> Void) { jobs.append(job) }

  /// Runs every scheduled job, and the jobs those schedule, in order.
  func runAll() {
    while !jobs.isEmpty { jobs.removeFirst()() }
  }
}

/// An observer list that delivers each write on a later turn, in write order, to the observers
/// registered before the write and still registered when its turn comes: a correct
/// `asynchronousOrdered` backend, or one with a ``Fault``.
final class AsynchronousObservers: ObservableValue {
  enum Fault: String, CaseIterable, Sendable {
    /// Each write's turn calls the observers registered when the write was made, as a hop that
    /// captures the observer list does. A cancel takes its observer out of the captured lists
    /// too, except a cancel made during a turn, which only leaves the registry: the observer
    /// still gets every write already pending then. Only a callback that cancels while later
    /// writes wait shows it (CAN-06 writes once per turn).
    case keepsPendingWritesOfObserversCancelledInATurn
    /// Each write's turn calls every observer registered when the turn runs, including one that
    /// subscribed after the write: a delivery job that picks its recipients when it runs, not
    /// when the value was set. Combine's `receive(on:)` never does this: an observer that
    /// subscribes after a `send` does not receive that value.
    case picksRecipientsWhenTheTurnRuns
  }

  final class Token: ObservationToken {
    weak var owner: AsynchronousObservers?
    let id: Int
    init(owner: AsynchronousObservers, id: Int) {
      self.owner = owner
      self.id = id
    }
    deinit { cancel() }
    func cancel() { owner?.remove(id) }
  }

  private var stored: Int
  private var handlers: [Int: (Int) -> Void] = [:]
  private var nextID = 0
  private let loop: DeliveryLoop
  let fault: Fault?
  /// The observers each pending write will call, by write (the fault's captured lists).
  private var captured: [Int: [Int: (Int) -> Void]] = [:]
  private var writes = 0
  private var delivering = false

  init(_ initialValue: Int, loop: DeliveryLoop, fault: Fault?) {
    stored = initialValue
    self.loop = loop
    self.fault = fault
  }

  var value: Int {
    get { stored }
    set {
      stored = newValue
      if fault == .keepsPendingWritesOfObserversCancelledInATurn {
        writes += 1
        let write = writes
        captured[write] = handlers
        loop.schedule { [weak self] in self?.deliverCaptured(newValue, write: write) }
        return
      }
      let registeredBefore = fault == .picksRecipientsWhenTheTurnRuns ? Int.max : nextID
      loop.schedule { [weak self] in self?.deliver(newValue, upTo: registeredBefore) }
    }
  }

  /// Calls, in registration order, each observer registered before the write (ids up to
  /// `last`; every observer registered when the turn runs with the late-recipients fault) that is
  /// still registered when its turn comes.
  private func deliver(_ value: Int, upTo last: Int) {
    for id in handlers.keys.sorted() where id <= last { handlers[id]?(value) }
  }

  /// Calls the observers captured for `write` (the fault).
  private func deliverCaptured(_ value: Int, write: Int) {
    guard let observers = captured.removeValue(forKey: write) else { return }
    delivering = true
    for id in observers.keys.sorted() { observers[id]?(value) }
    delivering = false
  }

  private func remove(_ id: Int) {
    handlers[id] = nil
    guard !delivering else { return }
    for write in captured.keys { captured[write]?[id] = nil }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    nextID += 1
    handlers[nextID] = handler
    return Token(owner: self, id: nextID)
  }
}

/// A backend of ``AsynchronousObservers``: every value, in order, on a later turn, which its
/// ``awaitDelivery(until:timeout:)`` gives.
struct AsynchronousBackend: ObservationBackend {
  let fault: AsynchronousObservers.Fault?
  private let loop = DeliveryLoop()

  init(fault: AsynchronousObservers.Fault?) { self.fault = fault }

  var name: String { "asynchronous-" + (fault?.rawValue ?? "ordered") }

  var capabilities: BackendCapabilities {
    // A list captured at the write lets an observer cancelled during a turn get the value in
    // flight: that fault's honest declaration leaves immediate cancellation out.
    var flags: Set<Capability> = [
      .deliversEveryValue, .preservesObserverOrder, .preservesValueOrderUnderReentrancy,
      .cancelsOnTokenDeinit,
    ]
    if fault != .keepsPendingWritesOfObserversCancelledInATurn {
      flags.insert(.immediateCancellation)
    }
    return BackendCapabilities(timing: .asynchronousOrdered, flags, maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> AsynchronousObservers {
    AsynchronousObservers(initialValue, loop: loop, fault: fault)
  }

  func awaitDelivery(until condition: () -> Bool, timeout: Duration) -> Bool {
    loop.runAll()
    return condition()
  }

  func awaitScheduledDeliveries(timeout: Duration) -> Bool {
    loop.runAll()
    return true
  }
}
