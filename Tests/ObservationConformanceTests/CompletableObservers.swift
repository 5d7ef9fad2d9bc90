import ObservationCore

/// A completable observer list: synchronous, in registration order, nested writes queued,
/// cancellation immediate and on the token's release, no replay, and a value frozen at
/// completion. With `fault == nil` it passes every rule it declares; each ``Fault`` is caught
/// only by DIFF-01's completion paths.
final class CompletableObservers: CompletableObservableValue {
  enum Fault: String, CaseIterable, Sendable {
    /// A completion made from a value callback finishes every observer, but the broadcast in
    /// flight goes on over the list it copied when it started: the observers after the
    /// completing one get that value after their completion. Only a callback that completes
    /// shows it (TERM-01 completes between writes).
    case finishesBroadcastAfterCallbackCompletes
    /// The subject counts as completed only once every completion handler has run, so an
    /// observer subscribed from a completion handler is registered as live and never hears of
    /// the completion. Only a completion handler that subscribes shows it (TERM-03 subscribes
    /// after `complete` returned).
    case registersObserversDuringCompletion
  }

  final class Token: ObservationToken {
    weak var owner: CompletableObservers?
    /// Weak: the subject owns its entries, so that its death releases every handler (MEM-04).
    weak var entry: Entry?
    init(owner: CompletableObservers, entry: Entry) {
      self.owner = owner
      self.entry = entry
    }
    deinit { cancel() }
    func cancel() {
      guard let entry else { return }
      owner?.remove(entry)
    }
  }

  final class Entry {
    var handler: ((Int) -> Void)?
    var onCompletion: (() -> Void)?
    /// Writes made before it registered: it gets only later ones.
    let start: Int
    init(handler: ((Int) -> Void)?, onCompletion: (() -> Void)?, start: Int) {
      self.handler = handler
      self.onCompletion = onCompletion
      self.start = start
    }
  }

  let fault: Fault?
  private var stored: Int
  private var entries: [Entry] = []
  private var released = 0
  private var writes = 0
  private var pending: [(number: Int, value: Int)] = []
  private var delivering = false
  private var completed = false
  /// Completion handlers are running (``Fault/registersObserversDuringCompletion`` only).
  private var completing = false

  init(_ initialValue: Int, fault: Fault?) {
    stored = initialValue
    self.fault = fault
  }

  var value: Int {
    get { stored }
    set {
      guard !completed && !completing else { return }
      stored = newValue
      writes += 1
      pending.append((writes, newValue))
      guard !delivering else { return }
      delivering = true
      while !pending.isEmpty && !completed { broadcast(pending.removeFirst()) }
      pending.removeAll()
      delivering = false
      compact()
    }
  }

  private func broadcast(_ write: (number: Int, value: Int)) {
    let due = entries.filter { $0.start < write.number }
    let handlers = due.map(\.handler)
    for (entry, handler) in zip(due, handlers) {
      if fault == .finishesBroadcastAfterCallbackCompletes && completed {
        handler?(write.value)
      } else if !completed, let live = entry.handler {
        live(write.value)
      }
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    register(handler, onCompletion: nil)
  }

  func observe(_ handler: @escaping (Int) -> Void, onCompletion: @escaping () -> Void) -> Token {
    register(handler, onCompletion: onCompletion)
  }

  private func register(_ handler: @escaping (Int) -> Void, onCompletion: (() -> Void)?) -> Token {
    let entry = Entry(handler: handler, onCompletion: onCompletion, start: writes)
    let token = Token(owner: self, entry: entry)
    if completed {
      entry.handler = nil
      entry.onCompletion = nil
      onCompletion?()
      return token
    }
    entries.append(entry)
    return token
  }

  func complete() {
    guard !completed && !completing else { return }
    if fault == .registersObserversDuringCompletion { completing = true } else { completed = true }
    pending.removeAll()
    for entry in entries.prefix(entries.count) where entry.handler != nil {
      entry.handler = nil
      let onCompletion = entry.onCompletion.take()
      released += 1
      onCompletion?()
    }
    completing = false
    completed = true
    compact()
  }

  var valueAfterCompletion: ValueAfterCompletionPolicy { .frozen }

  private func remove(_ entry: Entry) {
    guard entry.handler != nil else { return }
    entry.handler = nil
    entry.onCompletion = nil
    released += 1
    compact()
  }

  /// Drops released entries once they are half the list (never during delivery), so that
  /// releasing 10,000 tokens (SCALE-01) is not quadratic.
  private func compact() {
    guard !delivering && released * 2 > entries.count else { return }
    entries.removeAll { $0.handler == nil }
    released = 0
  }
}

/// A backend of ``CompletableObservers``, declaring what a correct one promises.
struct CompletableBackend: ObservationBackend {
  let fault: CompletableObservers.Fault?

  var name: String { "completable-" + (fault?.rawValue ?? "correct") }

  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .deliversEveryValue, .synchronousDelivery, .preservesObserverOrder,
        .preservesValueOrderUnderReentrancy, .immediateCancellation, .cancelsOnTokenDeinit,
        .supportsCompletion,
      ],
      maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> CompletableObservers {
    CompletableObservers(initialValue, fault: fault)
  }
}
