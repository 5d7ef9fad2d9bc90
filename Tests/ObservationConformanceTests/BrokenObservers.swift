import ObservationCore

/// A deliberately simple observer list with one injectable fault: the suite must catch each.
///
/// With `fault == nil` it is correct (replay, didSet, order, immediate cancellation,
/// cancellation on token release, trampolined reentrancy) and passes every rule it declares,
/// which shows that each failure below comes from its fault alone.
final class BrokenObservers: ObservableValue, ObserverCounting {
  enum Fault: String, CaseIterable, Sendable {
    /// A self-cancel during delivery makes the traversal skip the next observer, as removing
    /// from an array under an index-based traversal does.
    case skipsNextAfterSelfCancel
    /// Tokens remove the index they were given at registration, which is stale once an
    /// earlier observer is gone.
    case removesByStaleIndex
    /// Registration sends the replay twice.
    case replaysTwice
    /// Tokens do not cancel when released.
    case ignoresTokenDeinit
    /// Cancel marks the observer dead but keeps its closure.
    case keepsClosureAfterCancel
    /// Nested writes recurse into delivery instead of being queued.
    case recursesOnNestedWrite
    /// Observers run before the store, though didSet is declared.
    case notifiesBeforeStore
    /// Delivery hands each observer the stored value, not the value being delivered: after a
    /// nested write, later observers see [2, 2] for [1, 2].
    case deliversStoredValue
    /// A write made during delivery is stored only when its own delivery starts, so the
    /// callback that made it reads the old value back.
    case defersNestedStore
    /// Observers past the 64th are never called (a word-sized mask).
    case dropsObserversPast64
    /// Tokens hold a slot number; a freed slot is reused without a generation count, so a
    /// repeated cancel of an old token removes the slot's new owner.
    case reusesSlotsWithoutGeneration
    /// A cancel made during delivery only marks the observer, keeping its closure, and the
    /// marked observers are never removed afterwards.
    case forgetsCancelsDuringDelivery
    /// Each registry entry keeps its token, and tokens keep the subject: a view model that
    /// owns the subject and stores the token is freed, but the subject and the handler leak.
    case registryRetainsTokens
    /// The `_modify` accessor (what `subject.value += 1` on the concrete type uses) yields the
    /// storage itself, and nobody is notified.
    case modifiesWithoutNotifying
    /// The type's own `eraseToInput()` writes the storage without delivering.
    case inputBypassesDelivery
    /// The type's own `eraseToAnyObservable()` forwards only every other value.
    case readOnlyHandleDropsValues
    /// Writes made during delivery are delivered last-made first, as from a stack.
    case drainsNestedWritesLastFirst
    /// A write made during delivery is queued with a copy of the handlers registered at that
    /// moment, so an observer cancelled before the queue drains still gets it. Only a nested
    /// write followed by a cancel in the same delivery shows it.
    case snapshotsHandlersPerQueuedWrite
    /// Nested writes recurse into delivery; afterwards every observer whose last value is not
    /// the stored one is sent it again. Each ends on the last write, but observers after the
    /// writer see [2, 1, 2]: a stale value after a newer one. Declared as a coalescing backend
    /// with a nesting bound, so only the sequences show it.
    case recursesThenResendsLatest
    /// A write made from a callback skips the observers that same callback subscribed before
    /// it wrote (as if to spare a new observer an echo of its creator). Declared without
    /// replay, so that DIFF-01 subscribes from callbacks; only a callback that subscribes and
    /// then writes shows it.
    case skipsObserversSubscribedByWritingCallback
    /// Observers past the first two live in a spill list that each broadcast copies before it
    /// starts (a small-count fast path for the first two), so an observer past the second that
    /// a callback cancels still gets the value in flight. Only a callback that cancels an
    /// observer registered after it, with more than two observers, shows it: CAN-06 uses two.
    case callsSpilledObserversFromCopy
    /// A token whose last reference goes while a delivery runs (a callback dropping a token)
    /// stops its observer but parks the closure in a list nobody empties; `cancel()` and a
    /// release outside a delivery free it. Only a rule that releases tokens inside a delivery
    /// and then looks at the handlers' captures shows it.
    case releaseDuringDeliveryKeepsClosure
    /// A token released during a delivery (a callback dropping a token) is removed only when
    /// the delivery ends, so its observer still gets the value in flight and the writes queued
    /// meanwhile, though immediate cancellation is declared; `cancel()` is immediate. Only a
    /// callback that releases a token shows it (CAN-06 cancels; MEM-07 looks only at the end).
    case releaseDuringDeliveryIsDeferred
    /// A callback that cancels an observer and then writes, in the same callback, queues its
    /// write with the cancelled observer's handler still attached: the cancelled observer gets
    /// that write. Only two operations in one callback show it.
    case writeAfterCancelInSameCallbackReachesCancelled
    /// `observerCount` is a cached count that a cancel made by one observer's callback of
    /// another observer forgets to lower: the count stays one too high for good. MEM-05
    /// cancels at the top level and MEM-07 has each observer cancel itself, so only a script
    /// that reads the count after a callback cancelled someone else shows it.
    case miscountsObserversCancelledByAnotherCallback
  }

  final class Entry {
    let id: Int
    var handler: ((Int) -> Void)?
    /// The token, kept only by ``Fault/registryRetainsTokens``.
    var token: Token?
    var isCancelled = false
    /// The last value handed to this observer (``Fault/recursesThenResendsLatest``).
    var lastDelivered: Int?
    let startSequence: Int
    init(id: Int, handler: @escaping (Int) -> Void, startSequence: Int) {
      self.id = id
      self.handler = handler
      self.startSequence = startSequence
    }
  }

  final class Token: ObservationToken {
    let id: Int
    let index: Int
    let fault: Fault?
    weak var owner: BrokenObservers?
    /// The subject, kept only by ``Fault/registryRetainsTokens``.
    let retainedOwner: BrokenObservers?
    init(id: Int, index: Int, owner: BrokenObservers) {
      self.id = id
      self.index = index
      self.owner = owner
      self.fault = owner.fault
      retainedOwner = owner.fault == .registryRetainsTokens ? owner : nil
    }
    deinit {
      switch fault {
      case .ignoresTokenDeinit: break
      case .releaseDuringDeliveryKeepsClosure, .releaseDuringDeliveryIsDeferred:
        owner?.release(id: id, registeredAt: index)
      default: cancel()
      }
    }
    func cancel() { owner?.remove(id: id, registeredAt: index) }
  }

  let fault: Fault?
  /// Whether a write equal to the stored value is dropped (see ``SuppressingBackend``).
  let suppressesDuplicates: Bool
  private var stored: Int
  private var entries: [Entry] = []
  /// Lookup by id, so that even the leaking fault stays fast enough for MEM-05's 100,000 cycles.
  private var entryByID: [Int: Entry] = [:]
  private var nextID = 0
  /// Slot numbers for ``Fault/reusesSlotsWithoutGeneration``: who holds each, and which are free.
  private var slotOwner: [Int: Int] = [:]
  private var freeSlots: [Int] = []
  /// Cancelled entries still in `entries`.
  private var cancelledEntries = 0
  /// The observer being called, and whether it cancelled itself (``Fault/skipsNextAfterSelfCancel``).
  private var calling: Int?
  private var selfCancelShifted = false
  private var sequence = 0
  private var delivering = false
  private var pending: [(Int, Int)] = []
  /// The handlers copied for each pending write (``Fault/snapshotsHandlersPerQueuedWrite``).
  private var pendingHandlers: [Int: [(Int) -> Void]] = [:]
  /// Whether `observe` calls the new handler with the current value.
  let replays: Bool
  /// The observers the callback being called has subscribed, and the ones each pending write
  /// skips (``Fault/skipsObserversSubscribedByWritingCallback``).
  private var subscribedByCallback: Set<Int> = []
  private var pendingSkips: [Int: Set<Int>] = [:]

  /// Whether each broadcast calls the newest observer first (``UnorderedBrokenBackend``).
  let callsNewestFirst: Bool

  init(
    _ initialValue: Int, fault: Fault?, suppressesDuplicates: Bool = false,
    callsNewestFirst: Bool = false, replays: Bool? = nil
  ) {
    self.replays = replays ?? (fault != .skipsObserversSubscribedByWritingCallback)
    self.callsNewestFirst = callsNewestFirst
    stored = initialValue
    self.fault = fault
    self.suppressesDuplicates = suppressesDuplicates
  }

  var value: Int {
    get { stored }
    set { store(newValue) }
    _modify {
      if fault == .modifiesWithoutNotifying {
        yield &stored
        return
      }
      var copy = stored
      yield &copy
      store(copy)
    }
  }

  private func store(_ newValue: Int) {
    if suppressesDuplicates && newValue == stored { return }
    if fault == .notifiesBeforeStore {
      sequence += 1
      deliverNow(newValue, sequence)
      stored = newValue
      return
    }
    if fault == .defersNestedStore && delivering {
      sequence += 1
      pending.append((sequence, newValue))
      return
    }
    stored = newValue
    sequence += 1
    if delivering && fault != .recursesOnNestedWrite && fault != .recursesThenResendsLatest {
      pending.append((sequence, newValue))
      if fault == .snapshotsHandlersPerQueuedWrite {
        pendingHandlers[sequence] = entries.compactMap { $0.isCancelled ? nil : $0.handler }
      }
      if fault == .skipsObserversSubscribedByWritingCallback {
        pendingSkips[sequence] = subscribedByCallback
      }
      if fault == .writeAfterCancelInSameCallbackReachesCancelled && !cancelledByCallback.isEmpty {
        pendingStale[sequence] = cancelledByCallback
      }
      return
    }
    deliverNow(newValue, sequence)
  }

  /// This type's own send-only handle (a protocol requirement with a default, so generic code
  /// reaches it).
  func eraseToInput() -> ObservationInput<Int> {
    guard fault == .inputBypassesDelivery else { return ObservationInput(self) }
    return ObservationInput { [self] in stored = $0 }
  }

  /// This type's own read-only handle.
  func eraseToAnyObservable() -> AnyObservable<Int> {
    guard fault == .readOnlyHandleDropsValues else { return AnyObservable(self) }
    return AnyObservable(
      value: { [self] in stored },
      observe: { [self] handler in
        var forwarded = 0
        return AnyObservationToken(
          observe { value in
            forwarded += 1
            if forwarded % 2 == 1 { handler(value) }
          })
      })
  }

  private func deliverNow(_ value: Int, _ sequence: Int) {
    let outer = delivering
    delivering = true
    broadcast(value, sequence)
    if !outer {
      while !pending.isEmpty {
        let (number, next) =
          fault == .drainsNestedWritesLastFirst ? pending.removeLast() : pending.removeFirst()
        if fault == .defersNestedStore { stored = next }
        if let handlers = pendingHandlers.removeValue(forKey: number) {
          for handler in handlers { handler(next) }
          continue
        }
        broadcast(next, number)
        pendingSkips[number] = nil
        for handler in pendingStale.removeValue(forKey: number) ?? [] { handler(next) }
      }
      if fault == .recursesThenResendsLatest {
        for entry in entries where !entry.isCancelled && entry.lastDelivered != stored {
          entry.lastDelivered = stored
          entry.handler?(stored)
        }
      }
      delivering = false
      for (id, index) in deferredReleases { remove(id: id, registeredAt: index) }
      deferredReleases = []
      if fault != .skipsNextAfterSelfCancel && fault != .forgetsCancelsDuringDelivery {
        entries.removeAll { $0.isCancelled }
        cancelledEntries = 0
      }
    }
  }

  private func broadcast(_ value: Int, _ sequence: Int) {
    if callsNewestFirst {
      for entry in entries.reversed() { call(entry, value, sequence) }
      return
    }
    if fault == .callsSpilledObserversFromCopy {
      let spilled = entries.dropFirst(2).compactMap { entry in
        entry.isCancelled ? nil : (entry, entry.handler)
      }
      for entry in entries.prefix(2) { call(entry, value, sequence) }
      for (entry, handler) in spilled where entry.startSequence < sequence {
        handler?(value)
      }
      return
    }
    var index = 0
    while index < entries.count {
      if call(entries[index], value, sequence), selfCancelShifted {
        // The entry removed itself: the one after it now sits at `index`, and is passed.
        selfCancelShifted = false
        index += 1
      }
      index += 1
    }
  }

  /// Calls `entry` with the value of write `sequence` if it is due one; returns whether it did.
  @discardableResult
  private func call(_ entry: Entry, _ value: Int, _ sequence: Int) -> Bool {
    guard !entry.isCancelled, entry.startSequence < sequence, let handler = entry.handler,
      pendingSkips[sequence]?.contains(entry.id) != true
    else { return false }
    calling = entry.id
    subscribedByCallback = []
    entry.lastDelivered = value
    handler(fault == .deliversStoredValue ? stored : value)
    calling = nil
    cancelledByCallback = []
    return true
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    nextID += 1
    let entry = Entry(id: nextID, handler: handler, startSequence: sequence)
    if fault != .dropsObserversPast64 || entries.count < 64 { entries.append(entry) }
    cachedCount += 1
    entryByID[nextID] = entry
    var index = entries.count - 1
    if fault == .reusesSlotsWithoutGeneration {
      index = freeSlots.popLast() ?? slotOwner.count + freeSlots.count
      slotOwner[index] = nextID
    }
    let token = Token(id: nextID, index: index, owner: self)
    if fault == .registryRetainsTokens { entry.token = token }
    if calling != nil { subscribedByCallback.insert(nextID) }
    guard replays else { return token }
    let outer = delivering
    delivering = true
    entry.lastDelivered = stored
    handler(stored)
    if fault == .replaysTwice { handler(stored) }
    if !outer {
      while !pending.isEmpty {
        let (number, next) = pending.removeFirst()
        broadcast(next, number)
      }
      delivering = false
    }
    return token
  }

  /// Removes the cancelled entries once they are half the list (never during delivery).
  private func compactIfWorthIt() {
    guard !delivering && cancelledEntries * 2 > entries.count else { return }
    entries.removeAll { $0.isCancelled }
    cancelledEntries = 0
  }

  /// The live observers: entries not cancelled (with the fault, the cached count).
  var observerCount: Int {
    fault == .miscountsObserversCancelledByAnotherCallback
      ? cachedCount : entries.count { !$0.isCancelled }
  }

  /// Observers registered less those cancelled, as a count kept beside the list
  /// (``Fault/miscountsObserversCancelledByAnotherCallback``).
  private var cachedCount = 0

  /// The closures of tokens released during a delivery (``Fault/releaseDuringDeliveryKeepsClosure``).
  private var parkedClosures: [(Int) -> Void] = []
  /// Tokens released during the delivery under way (``Fault/releaseDuringDeliveryIsDeferred``).
  private var deferredReleases: [(id: Int, index: Int)] = []
  /// The handlers of the observers the callback being called has cancelled, and the ones each
  /// pending write also calls (``Fault/writeAfterCancelInSameCallbackReachesCancelled``).
  private var cancelledByCallback: [(Int) -> Void] = []
  private var pendingStale: [Int: [(Int) -> Void]] = [:]

  /// A token's release: a cancel, except with ``Fault/releaseDuringDeliveryKeepsClosure``
  /// during a delivery.
  fileprivate func release(id: Int, registeredAt index: Int) {
    if fault == .releaseDuringDeliveryIsDeferred && delivering {
      deferredReleases.append((id, index))
      return
    }
    guard delivering, let entry = entryByID.removeValue(forKey: id), !entry.isCancelled else {
      return remove(id: id, registeredAt: index)
    }
    entry.isCancelled = true
    if let handler = entry.handler { parkedClosures.append(handler) }
    entry.handler = nil
    cachedCount -= 1
    cancelledEntries += 1
    compactIfWorthIt()
  }

  fileprivate func remove(id: Int, registeredAt index: Int) {
    switch fault {
    case .removesByStaleIndex:
      if index < entries.count { entries.remove(at: index) }
    case .skipsNextAfterSelfCancel:
      guard let entry = entryByID.removeValue(forKey: id) else { return }
      entry.isCancelled = true
      entry.handler = nil
      if calling == id { selfCancelShifted = true }
      cancelledEntries += 1
      compactIfWorthIt()
    case .keepsClosureAfterCancel:
      entryByID[id]?.isCancelled = true
    case .reusesSlotsWithoutGeneration:
      // The slot's current owner goes, whoever it is.
      guard let owner = slotOwner.removeValue(forKey: index) else { return }
      freeSlots.append(index)
      guard let entry = entryByID.removeValue(forKey: owner) else { return }
      entry.isCancelled = true
      entry.handler = nil
      cancelledEntries += 1
      compactIfWorthIt()
    case .forgetsCancelsDuringDelivery where delivering:
      entryByID[id]?.isCancelled = true
    default:
      guard let entry = entryByID.removeValue(forKey: id), !entry.isCancelled else { return }
      entry.isCancelled = true
      entry.token = nil
      let released = entry.handler.take()
      if fault == .writeAfterCancelInSameCallbackReachesCancelled, calling != nil,
        let released
      {
        cancelledByCallback.append(released)
      }
      if fault != .miscountsObserversCancelledByAnotherCallback || calling == nil || calling == id {
        cachedCount -= 1
      }
      // Cancelled entries are compacted once they are half the list (and after every
      // delivery), so that releasing 10,000 tokens (SCALE-01) is not quadratic.
      cancelledEntries += 1
      compactIfWorthIt()
      _ = consume released
    }
  }
}

/// A backend making ``BrokenObservers`` with one fault, declaring what a correct one promises.
struct BrokenBackend: ObservationBackend {
  let fault: BrokenObservers.Fault?
  /// Whether `observe` replays, where not the fault's choice: `false` replays nothing and
  /// declares no replay.
  var replays = true

  var name: String { "broken-" + (fault?.rawValue ?? "none") + (replays ? "" : "-not-replaying") }

  var capabilities: BackendCapabilities {
    guard replays else {
      var declared = Self(fault: fault).capabilities
      declared.flags.remove(.replaysCurrentValue)
      return declared
    }
    if fault == .skipsObserversSubscribedByWritingCallback {
      return BackendCapabilities(
        timing: .didSet,
        [
          .deliversEveryValue, .synchronousDelivery, .preservesObserverOrder,
          .preservesValueOrderUnderReentrancy, .immediateCancellation, .cancelsOnTokenDeinit,
        ],
        maxReentrancyDepth: .unbounded)
    }
    if fault == .recursesThenResendsLatest {
      // What a recursing backend may honestly claim: nesting as deep as the chain, values
      // coalesced, no order promised under reentrancy.
      return BackendCapabilities(
        timing: .didSet,
        [
          .replaysCurrentValue, .synchronousDelivery, .preservesObserverOrder,
          .immediateCancellation, .cancelsOnTokenDeinit,
        ],
        maxReentrancyDepth: .bounded(16))
    }
    return BackendCapabilities(
      timing: .didSet,
      [
        .replaysCurrentValue, .deliversEveryValue, .synchronousDelivery, .preservesObserverOrder,
        .preservesValueOrderUnderReentrancy, .immediateCancellation, .cancelsOnTokenDeinit,
      ],
      maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> BrokenObservers {
    BrokenObservers(initialValue, fault: fault, replays: replays ? nil : false)
  }
}

/// ``BrokenObservers`` that call the newest observer first (or, with `newestFirst` false, in
/// registration order), declared without observer order or replay: DIFF-01's model follows the
/// order they call in, and callbacks subscribe.
struct UnorderedBrokenBackend: ObservationBackend {
  let fault: BrokenObservers.Fault?
  var newestFirst = true

  var name: String {
    "broken-unordered-" + (fault?.rawValue ?? "none") + (newestFirst ? "" : "-oldest-first")
  }

  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .deliversEveryValue, .synchronousDelivery, .preservesValueOrderUnderReentrancy,
        .immediateCancellation, .cancelsOnTokenDeinit,
      ],
      maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> BrokenObservers {
    BrokenObservers(initialValue, fault: fault, callsNewestFirst: newestFirst, replays: false)
  }
}

/// A backend whose declaration contradicts itself.
struct ContradictoryBackend: ObservationBackend {
  var name: String { "contradictory" }
  var capabilities: BackendCapabilities {
    BackendCapabilities(timing: .didSet, [.serializedDelivery], maxReentrancyDepth: .bounded(-1))
  }
  func makeSubject(initialValue: Int) -> BrokenObservers {
    BrokenObservers(initialValue, fault: nil)
  }
}

/// A backend that declares duplicate suppression and a bound on nested writes: REE-04's two-way
/// binding nests 2 deep, so with a bound of 2 it must pass, with 1 it cannot run (n/a), and a
/// backend that declares suppression without doing it must fail.
struct SuppressingBackend: ObservationBackend {
  let depth: Int
  let suppresses: Bool

  var name: String { "suppressing-depth-\(depth)" + (suppresses ? "" : "-without-suppressing") }

  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .replaysCurrentValue, .synchronousDelivery, .preservesObserverOrder,
        .immediateCancellation, .cancelsOnTokenDeinit, .suppressesDuplicates,
      ],
      maxReentrancyDepth: .bounded(depth))
  }

  func makeSubject(initialValue: Int) -> BrokenObservers {
    BrokenObservers(initialValue, fault: nil, suppressesDuplicates: suppresses)
  }
}
