import ObservationCore

/// A completable observer list that delivers each write on a later turn, in write order, to
/// the observers registered when it was made (cancellation immediate: a cancel takes the
/// observer out of the writes still waiting), with a value frozen at completion. What
/// `complete()` does with the writes still waiting is its ``Completion``.
///
/// The first two are the correct twins of the open point "values still waiting when an
/// asynchronous backend completes"; the third is broken.
final class TurnQueueCompletableObservers: CompletableObservableValue, CancelsByID {
  enum Completion: String, CaseIterable, Sendable {
    /// The writes still waiting are dropped, and every live observer's completion handler runs
    /// inside `complete()`.
    case dropsWaitingWrites
    /// The writes still waiting are delivered first: the completion handlers run on a turn
    /// queued behind them, as a `receive(on:)` hop delivers a completion after the values sent
    /// before it. An observer cancelled meanwhile gets none.
    case deliversWaitingWritesFirst
    /// A fault: the completion handlers run inside `complete()`, but the writes still waiting
    /// are delivered afterwards, so an observer gets a value after its completion. TERM-01
    /// completes with nothing waiting and cannot see it.
    case completesBeforeWaitingWrites
  }

  typealias Token = TurnQueueToken<TurnQueueCompletableObservers>

  private struct Observer {
    let handler: (Int) -> Void
    let onCompletion: (() -> Void)?
  }

  let completion: Completion
  private let queue: TurnQueue
  private var stored: Int
  private var observers: [Int: Observer] = [:]
  private var nextID = 0
  private var writes = 0
  /// The recipients of each write still waiting for its turn, by write number: in the order to
  /// call them, and those still to be called.
  private var waiting: [Int: (order: [Int], live: Set<Int>)] = [:]
  private var completed = false

  init(_ initialValue: Int, queue: TurnQueue, completion: Completion) {
    stored = initialValue
    self.queue = queue
    self.completion = completion
  }

  var value: Int {
    get { stored }
    set {
      guard !completed else { return }
      stored = newValue
      writes += 1
      let write = writes
      let recipients = observers.keys.sorted()
      waiting[write] = (recipients, Set(recipients))
      queue.schedule { [weak self] in self?.deliver(write, newValue) }
    }
  }

  /// Calls each recipient of `write` still registered when its call comes; with the fault,
  /// a completed observer's handler too.
  private func deliver(_ write: Int, _ value: Int) {
    guard let recipients = waiting[write]?.order else { return }
    for id in recipients where waiting[write]?.live.contains(id) == true {
      if let observer = observers[id] {
        observer.handler(value)
      } else if let handler = completedHandlers[id] {
        handler(value)
      }
    }
    waiting[write] = nil
  }

  /// The fault's handlers of completed observers, which its waiting writes still call.
  private var completedHandlers: [Int: (Int) -> Void] = [:]

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    register(handler, onCompletion: nil)
  }

  func observe(_ handler: @escaping (Int) -> Void, onCompletion: @escaping () -> Void) -> Token {
    register(handler, onCompletion: onCompletion)
  }

  private func register(_ handler: @escaping (Int) -> Void, onCompletion: (() -> Void)?) -> Token {
    nextID += 1
    let token = Token(owner: self, id: nextID)
    if completed {
      onCompletion?()
      return token
    }
    observers[nextID] = Observer(handler: handler, onCompletion: onCompletion)
    return token
  }

  func complete() {
    guard !completed else { return }
    completed = true
    switch completion {
    case .dropsWaitingWrites:
      waiting.removeAll()
      completeObservers(observers.keys.sorted())
    case .deliversWaitingWritesFirst:
      let live = observers.keys.sorted()
      queue.schedule { [weak self] in self?.completeObservers(live) }
    case .completesBeforeWaitingWrites:
      for (id, observer) in observers where !waiting.isEmpty {
        completedHandlers[id] = observer.handler
      }
      completeObservers(observers.keys.sorted())
      queue.schedule { [weak self] in self?.completedHandlers.removeAll() }
    }
  }

  /// Runs the completion handler of each of `ids` still registered, releasing it first.
  private func completeObservers(_ ids: [Int]) {
    for id in ids {
      guard let observer = observers.removeValue(forKey: id) else { continue }
      observer.onCompletion?()
    }
  }

  var valueAfterCompletion: ValueAfterCompletionPolicy { .frozen }

  func cancel(_ id: Int) {
    observers[id] = nil
    completedHandlers[id] = nil
    for write in waiting.keys { waiting[write]?.live.remove(id) }
  }
}

/// A backend of ``TurnQueueCompletableObservers``: every value, in order, on a later turn,
/// which its ``awaitDelivery(until:timeout:)`` gives, and completion.
struct TurnQueueCompletableBackend: TurnQueueDriven {
  let completion: TurnQueueCompletableObservers.Completion
  let queue = TurnQueue()

  init(completion: TurnQueueCompletableObservers.Completion) { self.completion = completion }

  var name: String { "turn-queue-completable-" + completion.rawValue }

  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .asynchronousOrdered,
      [
        .deliversEveryValue, .preservesObserverOrder, .preservesValueOrderUnderReentrancy,
        .immediateCancellation, .cancelsOnTokenDeinit, .supportsCompletion,
      ],
      maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> TurnQueueCompletableObservers {
    TurnQueueCompletableObservers(initialValue, queue: queue, completion: completion)
  }
}
