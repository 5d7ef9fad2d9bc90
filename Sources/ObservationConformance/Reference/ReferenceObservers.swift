import ObservationCore

/// The catalogue's semantics for a synchronous didSet backend that delivers every value,
/// written as plainly as possible (an array of entries, linear scans, a queue of pending
/// writes), with no attention to cost: the model DIFF-01 compares a backend with.
///
/// The declared capabilities that change what a script does are parameters: replay, duplicate
/// suppression, whether nested writes are queued (value order under reentrancy), whether the
/// store follows the callbacks (willSet), whether releasing a token cancels, and what a write
/// after completion does to the value. Completion (``complete()``) calls each live observer's
/// completion handler once and releases it; nothing is delivered after it, not even the rest
/// of a broadcast a callback completed in; an observer that subscribes later, or from a
/// completion handler, gets the completion at once and no replay. Where the contract leaves
/// the choice open, the model does what the backend did (DIFF-01 tells it): a completion
/// requested from a callback completes the observers at once or when the delivery returns
/// (``completionDeferred``), in any order (``completionOrder``); and a write made from a replay
/// callback while no other delivery is under way is delivered at once or queued until the
/// replay returns (``nestedWriteRecurses``), whether or not nested writes are queued. A backend that
/// does not declare value order under reentrancy may queue a nested write or deliver it at once
/// by recursion: ``nestedWriteRecurses`` says which the backend did (by default, recursion).
/// With recursion, a willSet store lands after the nested write's, as in such a backend. Where
/// neither explains the backend, DIFF-01 tries the model splitting nested writes
/// (``splitDelivery``): each observer gets the writes in the order made, at once or later.
/// Observer order is registration
/// order, unless ``order`` picks among the observers a broadcast has yet to call: for a backend
/// that does not declare order, DIFF-01 has the model follow the order the backend chose, so
/// that everything else (who receives what, what a callback's cancel or write changes) is
/// compared exactly. Two models may share a ``SharedTrampoline``: then a write to either made
/// while a delivery of either is under way waits for the outermost one, as with a backend whose
/// subjects share one trampoline; without it, a write to a subject that is not delivering is
/// delivered at once, whatever other subject is. The contract allows both (a write to another
/// subject made from a callback), and DIFF-01 tries the model both ways.
final class ReferenceObservers: CompletableObservableValue, ObserverCounting {
  /// What subjects that wait for the same outermost delivery share: one queue of the writes
  /// made while a delivery of any of them is under way, delivered in the order made.
  final class SharedTrampoline {
    /// The deliveries under way, of any subject sharing it.
    var depth = 0
    /// The replays under way, of any subject sharing it: a write made from one, no delivery
    /// under way, waits for it or not, as the backend did (``nestedWriteRecurses``).
    var replays = 0
    /// The broadcasts waiting, of any subject.
    var waiting: [() -> Void] = []

    /// Delivers the waiting broadcasts in the order their writes were made, the ones they
    /// add included.
    func drain() {
      depth += 1
      while !waiting.isEmpty { waiting.removeFirst()() }
      depth -= 1
    }
  }

  /// What the model does, from a backend's declaration.
  struct Semantics: Hashable {
    var replays: Bool
    var suppressesDuplicates: Bool
    var queuesNestedWrites: Bool
    var storesAfterDelivery: Bool
    var cancelsOnRelease: Bool
    /// What a write after completion does to the stored value, for a completable backend (its
    /// subject's ``CompletableObservableValue/valueAfterCompletion``).
    var valueAfterCompletion: ValueAfterCompletionPolicy = .stored

    init(_ capabilities: BackendCapabilities) {
      replays = capabilities.has(.replaysCurrentValue)
      suppressesDuplicates = capabilities.has(.suppressesDuplicates)
      queuesNestedWrites = capabilities.has(.preservesValueOrderUnderReentrancy)
      storesAfterDelivery = capabilities.timing == .willSet
      cancelsOnRelease = capabilities.has(.cancelsOnTokenDeinit)
    }
  }

  private struct Entry {
    let id: Int
    /// The label ``nextLabel`` held when it registered.
    let label: Int
    var handler: ((Int) -> Void)?
    var onCompletion: (() -> Void)?
    /// The number of writes made before it registered: it gets only later ones.
    let start: Int
    /// With ``splitDelivery``, the writes it has yet to get, oldest first.
    var waiting: [(number: Int, value: Int)] = []
  }

  final class Token: ObservationToken {
    weak var owner: ReferenceObservers?
    let id: Int
    init(owner: ReferenceObservers, id: Int) {
      self.owner = owner
      self.id = id
    }
    deinit { if owner?.semantics.cancelsOnRelease == true { cancel() } }
    func cancel() { owner?.cancel(id) }
  }

  let semantics: Semantics
  private var stored: Int
  /// The number of the write whose value is stored: with willSet, during a broadcast, the one
  /// before it.
  private var storedNumber = 0
  private var entries: [Entry] = []
  private var writes = 0
  private var queue: [(number: Int, value: Int)] = []
  private var delivering = 0
  /// How many of the deliveries under way are replays (``delivering`` counts them too).
  private var replaying = 0
  /// A completion requested during a delivery, whose handlers run when it returns.
  private var completionPending = false
  private var nextID = 0
  /// Whether the subject has completed: nothing is delivered any more, a new observer gets
  /// the completion at once and no replay.
  private var completed = false
  /// The label the next registration gets (DIFF-01 sets the script's observer id).
  var nextLabel = 0
  /// Picks, by label, which of the observers a broadcast has yet to call goes next (they come
  /// in registration order); `nil` calls them in registration order.
  var order: ((_ candidates: [Int]) -> Int)?
  /// Whether a write made during delivery, of this value, is delivered at once (recursion)
  /// rather than queued, where the declaration leaves it open; `nil` recurses.
  ///
  /// Consulted too on a backend that queues nested writes, for a write made while the only
  /// deliveries under way are replays: whether `observe` is a call that queues is open.
  var nestedWriteRecurses: ((_ value: Int) -> Bool)?
  /// Picks, by label, which of the live observers a completion completes next; `nil` uses
  /// ``order``. Whatever observer order is declared, completion order is open.
  var completionOrder: ((_ candidates: [Int]) -> Int)?
  /// Whether the completion being requested, during a delivery, runs its handlers when the
  /// delivery returns rather than at once; `nil` completes at once.
  var completionDeferred: (() -> Bool)?
  /// Whether an observer that subscribes, with this label, during the broadcast of a write is
  /// replayed that write's value rather than the stored value, where they differ (after a
  /// queued nested write); `nil` replays the stored value. Either is allowed: such an observer
  /// gets the value under delivery once (SUB-02) and every later write.
  var replaysValueInFlight: ((_ label: Int, _ value: Int) -> Bool)?
  /// The writes whose broadcasts are under way, innermost last.
  private var inFlight: [(number: Int, value: Int)] = []
  /// The trampoline this subject shares with another, or `nil` (its own queue only).
  var sharedTrampoline: SharedTrampoline?
  /// Splits nested writes, where set: each write waits in each observer's own queue, and what
  /// comes next is any observer's oldest waiting write (the one an observer gets after the
  /// outer value, or at once if it already had that). Picks, among those (label and value, in
  /// registration order), the delivery that comes next, or `nil` for none yet; `mustDeliver`
  /// when no delivery is under way, where a synchronous backend delivers everything before the
  /// outermost `set` (or `observe`) returns, and `nil` then takes the first.
  ///
  /// The contract's one order for a backend that delivers every value without declaring value
  /// order is each observer's: the writes made while it was registered, each once, in the
  /// order made (DEL-06). A nested write delivered at once to the observers the outer write
  /// reached and later (interleaved, or after the outer broadcast) to the rest keeps it; so
  /// does a queue. Whole recursion does not (an observer the outer write had yet to reach gets
  /// the nested value first), and the model never makes it in this mode.
  var splitDelivery: ((_ candidates: [(label: Int, value: Int)], _ mustDeliver: Bool) -> Int?)?
  /// With ``splitDelivery``, whether each write reaches its observers in registration order
  /// (a backend that declares `preservesObserverOrder`).
  var splitKeepsObserverOrder = false
  /// With ``splitDelivery``, every write made, for a late subscriber replayed a value in
  /// flight (it then waits for every write after that one).
  private var history: [(number: Int, value: Int)] = []

  init(_ initialValue: Int, semantics: Semantics) {
    stored = initialValue
    self.semantics = semantics
  }

  var value: Int {
    get { stored }
    set {
      if completed {
        if semantics.valueAfterCompletion == .stored { stored = newValue }
        return
      }
      if semantics.suppressesDuplicates && newValue == stored { return }
      writes += 1
      if splitDelivery != nil {
        (stored, storedNumber) = (newValue, writes)
        let write = (number: writes, value: newValue)
        history.append(write)
        for index in entries.indices where entries[index].handler != nil {
          entries[index].waiting.append(write)
        }
        deliverWaiting(mustDeliver: delivering == 0)
        return
      }
      if let trampoline = sharedTrampoline {
        let write = (number: writes, value: newValue)
        let storesAfter = semantics.storesAfterDelivery
        if !storesAfter { (stored, storedNumber) = (newValue, writes) }
        trampoline.waiting.append { [self] in broadcast(write, thenStores: storesAfter) }
        let waits =
          trampoline.depth > 0
          || (trampoline.replays > 0 && nestedWriteRecurses.map { !$0(newValue) } == true)
        if !waits { trampoline.drain() }
        return
      }
      // Where the declaration leaves it open, follow the backend: any nested write without
      // declared value order, and one made while only replays are under way.
      let open = delivering > 0 && (!semantics.queuesNestedWrites || delivering == replaying)
      let queues =
        open
        ? nestedWriteRecurses.map { !$0(newValue) } ?? semantics.queuesNestedWrites
        : semantics.queuesNestedWrites
      if queues {
        // willSet: a write made during a delivery is stored before its `set` returns (REE-05);
        // an outermost one after its callbacks.
        if !semantics.storesAfterDelivery || delivering > 0 {
          (stored, storedNumber) = (newValue, writes)
        }
        queue.append((writes, newValue))
        if delivering == 0 { drain() }
      } else if semantics.storesAfterDelivery {
        broadcast((writes, newValue), thenStores: true)
      } else {
        (stored, storedNumber) = (newValue, writes)
        broadcast((writes, newValue))
      }
    }
  }

  private func drain() {
    while !queue.isEmpty && !completed {
      broadcast(queue.removeFirst(), thenStores: semantics.storesAfterDelivery)
    }
    if delivering == 0 { entries.removeAll { $0.handler == nil } }
  }

  /// Calls each observer the write reaches; with `thenStores` (willSet), stores the value after
  /// its callbacks and before the writes they queued are delivered, so that a queued write
  /// stores after the one that made it.
  private func broadcast(_ write: (number: Int, value: Int), thenStores: Bool = false) {
    delivering += 1
    inFlight.append(write)
    var called: Set<Int> = []
    // A completion made by a callback ends the broadcast: nothing after completion.
    while !completed {
      // Observers registered before the write, not cancelled, not yet called for it.
      let candidates = entries.filter {
        $0.start < write.number && $0.handler != nil && !called.contains($0.id)
      }
      guard let chosen = next(among: candidates) else { break }
      called.insert(chosen.id)
      chosen.handler?(write.value)
    }
    inFlight.removeLast()
    delivering -= 1
    if thenStores { (stored, storedNumber) = (write.value, write.number) }
    // Writes queued during it (a recursing backend's queue is empty), and a completion
    // deferred to its end: this was the outermost delivery, or one a write made from a replay
    // started where the backend does not count the replay as a delivery.
    if delivering == replaying {
      drain()
      completePending()
    }
  }

  /// With ``splitDelivery``: delivers the observers' waiting writes one at a time, as long as
  /// the backend's choice names one (or, with `mustDeliver`, until none waits), then, at the
  /// outermost call, a completion deferred to it.
  private func deliverWaiting(mustDeliver: Bool) {
    while !completed, let pick = splitDelivery {
      var candidates: [Int] = []
      for (index, entry) in entries.enumerated() where entry.handler != nil {
        guard let head = entry.waiting.first else { continue }
        // With observer order, nobody registered earlier still waits for the same write.
        let overtakes =
          splitKeepsObserverOrder
          && entries[..<index].contains { earlier in
            earlier.handler != nil && earlier.waiting.contains { $0.number == head.number }
          }
        if !overtakes { candidates.append(index) }
      }
      guard !candidates.isEmpty else { break }
      let choice = pick(
        candidates.map { (entries[$0].label, entries[$0].waiting[0].value) }, mustDeliver)
      guard let chosen = choice ?? (mustDeliver ? 0 : nil) else { break }
      let index = candidates[chosen]
      let write = entries[index].waiting.removeFirst()
      guard let handler = entries[index].handler else { continue }
      delivering += 1
      inFlight.append(write)
      handler(write.value)
      inFlight.removeLast()
      delivering -= 1
    }
    if delivering == 0 {
      entries.removeAll { $0.handler == nil }
      completePending()
    }
  }

  /// The observer among `candidates` (in registration order) that a broadcast calls next, or
  /// with `completing`, that a completion completes next.
  private func next(among candidates: [Entry], completing: Bool = false) -> Entry? {
    guard let first = candidates.first else { return nil }
    guard let order = completing ? completionOrder ?? order : order else { return first }
    let label = order(candidates.map(\.label))
    return candidates.first { $0.label == label } ?? first
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    observe(handler, onCompletion: nil)
  }

  func observe(_ handler: @escaping (Int) -> Void, onCompletion: @escaping () -> Void) -> Token {
    observe(handler, onCompletion: Optional(onCompletion))
  }

  private func observe(_ handler: @escaping (Int) -> Void, onCompletion: (() -> Void)?) -> Token {
    nextID += 1
    let token = Token(owner: self, id: nextID)
    if completed {
      onCompletion?()
      return token
    }
    // The replay: the stored value, or the value under delivery where the backend gave that
    // (the observer then gets every write after it, the queued ones too). With willSet, the
    // value stored during a broadcast is the one before it: the observer replayed that gets
    // the write under delivery from the broadcast (one not replayed gets only later writes).
    var replay = (number: semantics.replays ? storedNumber : writes, value: stored)
    if semantics.replays, let current = inFlight.last, current.value != stored,
      replaysValueInFlight?(nextLabel, current.value) == true
    {
      replay = current
    }
    var entry = Entry(
      id: nextID, label: nextLabel, handler: handler, onCompletion: onCompletion,
      start: replay.number)
    if splitDelivery != nil { entry.waiting = history.filter { $0.number > replay.number } }
    entries.append(entry)
    if semantics.replays {
      delivering += 1
      replaying += 1
      sharedTrampoline?.replays += 1
      handler(replay.value)
      sharedTrampoline?.replays -= 1
      replaying -= 1
      delivering -= 1
      // The writes that waited for this replay, when it was the last thing under way.
      if let trampoline = sharedTrampoline, trampoline.depth == 0, trampoline.replays == 0 {
        trampoline.drain()
      }
      if delivering == 0 { drain() }
      if splitDelivery != nil && delivering == 0 { deliverWaiting(mustDeliver: true) }
      if delivering == 0 { completePending() }
    }
    return token
  }

  /// Calls each live observer's completion handler once, in registration order (or the order
  /// ``completionOrder`` picks), and releases every observer: completion implies cancellation.
  /// Pending writes are dropped; a second completion does nothing. Requested during a
  /// delivery, with ``completionDeferred``, the handlers run when the delivery returns (nothing
  /// is delivered meanwhile; an observer cancelled meanwhile gets none).
  func complete() {
    guard !completed else { return }
    completed = true
    queue.removeAll()
    for index in entries.indices { entries[index].waiting.removeAll() }
    if delivering > 0 && completionDeferred?() == true {
      completionPending = true
      return
    }
    completeLiveObservers()
  }

  /// Runs the completion deferred to the end of a delivery, once no delivery is under way.
  private func completePending() {
    guard completionPending else { return }
    completionPending = false
    completeLiveObservers()
  }

  private func completeLiveObservers() {
    delivering += 1
    while let chosen = next(among: entries.filter { $0.handler != nil }, completing: true) {
      let index = entries.firstIndex { $0.id == chosen.id }!
      entries[index].handler = nil
      let handler = entries[index].onCompletion.take()
      handler?()
    }
    delivering -= 1
    if delivering == 0 { entries.removeAll { $0.handler == nil } }
  }

  var valueAfterCompletion: ValueAfterCompletionPolicy { semantics.valueAfterCompletion }

  /// The observers registered and neither cancelled nor completed.
  var observerCount: Int { entries.count { $0.handler != nil } }

  private func cancel(_ id: Int) {
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
    entries[index].onCompletion = nil
    entries[index].waiting.removeAll()
    let released = entries[index].handler.take()
    if delivering == 0 { entries.remove(at: index) }
    _ = consume released
  }
}
