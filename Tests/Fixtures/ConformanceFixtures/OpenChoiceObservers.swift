import ObservationCore

/// A correct, completable observer list (synchronous, registration order, cancellation
/// immediate) that makes, at each point where the contract leaves the behaviour open, the
/// choice its ``Choices`` name. By default it queues nested writes and delivers them from the
/// outermost call, cancels on the token's release and freezes its value at completion, and
/// declares all three.
///
/// Two of them that differ in one choice are the correct twins of that open point: both must
/// pass every rule they declare, in process, through their erased handles and isolated. A rule
/// that fails one of them has picked a side the contract does not pick.
final class OpenChoiceObservers: CompletableObservableValue {
  /// What it does where the contract leaves a choice.
  struct Choices: Hashable, Sendable {
    /// Whether `observe` replays the current value (and so declares `replaysCurrentValue`).
    var replays = false
    /// A write made from a replay callback while no other delivery is under way.
    var replayWrite = ReplayWrite.queuedUntilReplayReturns
    /// The replay to an observer that subscribes during a broadcast.
    var lateReplay = LateReplay.storedValue
    /// A completion requested from a value callback.
    var callbackCompletion = CallbackCompletion.atOnce
    /// The order completion handlers run in.
    var completionOrder = CompletionOrder.registration
    /// A write made from a value callback, and whether value order under reentrancy is
    /// declared.
    var nestedWrite = NestedWrite.queuedAndDeclared
    /// What a write after completion does to the value.
    var valueAfterCompletion = ValueAfterCompletionPolicy.frozen
    /// What releasing the last reference to a token does, and whether it is declared.
    var tokenRelease = TokenRelease.cancelsAndDeclared
    /// What a recursing list does with a write nested deeper than it declares.
    var pastTheBound = PastTheBound.recurses
    /// Whether callbacks run after the store (`didSet`) or before it (`willSet`). With willSet, a
    /// write made from a callback is stored before its `set` returns (REE-05): a queued one at
    /// once (and the outer write's store, after its callbacks, comes before the queued write's
    /// callbacks, which read the outer value), a recursing one after its own callbacks (which
    /// read the value before it); the outer write then stores only if no newer write was made.
    var willSet = false
    /// A fault, with willSet and recursion: the outer write stores its value after its callbacks
    /// even when one of them made a newer write, so the subject ends on an older value.
    var storesOuterValueLast = false

    /// The fixture's name: each choice that differs from the first of its kind.
    var name: String {
      var words = ["open-choice"]
      if willSet { words.append("will-set") }
      if storesOuterValueLast { words.append("storing-outer-value-last") }
      if replays { words.append("replaying") }
      if replays && replayWrite == .deliveredAtOnce { words.append("replay-write-at-once") }
      if replays && lateReplay == .valueInFlight { words.append("late-replay-in-flight") }
      if replays && lateReplay == .valueInFlightSkippingQueued {
        words.append("late-replay-in-flight-skipping-queued")
      }
      if callbackCompletion == .whenDeliveryReturns { words.append("deferred-completion") }
      if completionOrder == .reverse { words.append("reverse-completion") }
      switch nestedWrite {
      case .queuedAndDeclared: break
      case .queued: words.append("undeclared-write-order")
      case .recursesSkippingOlder: words.append("recursing")
      case .splitInterleaved: words.append("split-interleaved")
      case .splitAfterBroadcast: words.append("split-after-broadcast")
      case .splitAfterBroadcastReachingCancelled:
        words.append("split-after-broadcast-reaching-cancelled")
      }
      if valueAfterCompletion == .stored { words.append("storing-after-completion") }
      switch tokenRelease {
      case .cancelsAndDeclared: break
      case .cancels: words.append("undeclared-release")
      case .keepsObserving: words.append("release-keeps-observing")
      }
      if nestedWrite == .recursesSkippingOlder && pastTheBound == .storesWithoutDelivering {
        words.append("silent-past-the-bound")
      }
      return words.joined(separator: "-")
    }
  }

  /// A write made from a replay callback.
  enum ReplayWrite: Hashable, Sendable {
    /// The replay counts as a delivery: the write waits until the replay callback returns,
    /// then `observe` delivers it.
    case queuedUntilReplayReturns
    /// `observe` is not a call that queues: the write is the outermost `set`, and delivers at
    /// once.
    case deliveredAtOnce
  }

  /// The replay to an observer that subscribes during the broadcast of a write. The two differ
  /// once a callback has queued a newer write.
  enum LateReplay: Hashable, Sendable {
    /// The stored value (the newest write); the writes queued before it are not delivered to
    /// it. With willSet, the value stored while the write is delivered is the one before it:
    /// the observer gets that, then the write under delivery from the broadcast.
    case storedValue
    /// The value under delivery; every write after it, the queued ones too, is delivered to
    /// it.
    case valueInFlight
    /// A fault: the value under delivery, but the writes queued before the subscription are not
    /// delivered to it, as if it had been replayed the stored value. The observer misses them
    /// and stays on an older value than the subject's.
    case valueInFlightSkippingQueued
  }

  /// A completion requested from a value callback.
  enum CallbackCompletion: Hashable, Sendable {
    /// `complete()` runs every live observer's completion handler before it returns.
    case atOnce
    /// `complete()` stops every delivery at once; the handlers run when the outermost delivery
    /// returns (an observer that subscribes meanwhile is completed at once, one cancelled
    /// meanwhile gets none).
    case whenDeliveryReturns
  }

  /// The order completion handlers run in.
  enum CompletionOrder: Hashable, Sendable {
    case registration
    case reverse
  }

  /// A write made from a value callback.
  ///
  /// A list that delivers every value and recurses gives an observer the outer, older value
  /// after the nested one (REE-03 fails it) unless it splits the nested write (at once to the
  /// observers the outer write reached, later to the rest). So the twins of this point declare
  /// neither `deliversEveryValue` nor `preservesValueOrderUnderReentrancy`: one queues, one
  /// recurses and skips the older value; and the split's twins declare `deliversEveryValue`,
  /// interleaved or after the outer broadcast.
  enum NestedWrite: Hashable, Sendable {
    /// Queued and delivered by the outermost call, declaring
    /// `preservesValueOrderUnderReentrancy` and `deliversEveryValue`.
    case queuedAndDeclared
    /// Queued the same way, declaring neither.
    case queued
    /// Delivered at once to every live observer, by recursion; the outer broadcast then skips
    /// each observer the nested write already reached, so that none gets an older value after
    /// a newer one (REE-03). Declares neither word; nesting is bounded
    /// (``OpenChoiceBackend/recursionBound``).
    case recursesSkippingOlder
    /// Split: delivered at once (by recursion) to every observer that already had the outer
    /// write, and to each of the rest right after the outer write reaches it. Every observer
    /// gets every value, in the order written: it declares `deliversEveryValue`, not value
    /// order (a nested write is not queued), and bounds nesting like a recursing list.
    case splitInterleaved
    /// Split the same way, but the rest get the nested write once the outermost broadcast has
    /// reached everyone.
    case splitAfterBroadcast
    /// A fault: split after the broadcast, but each waiting delivery keeps the handler it was
    /// queued for, so an observer cancelled meanwhile still gets it (CAN-01).
    case splitAfterBroadcastReachingCancelled

    /// Whether it splits a nested write between the observers the outer write reached and the
    /// rest.
    var splits: Bool {
      switch self {
      case .splitInterleaved, .splitAfterBroadcast, .splitAfterBroadcastReachingCancelled:
        return true
      case .queuedAndDeclared, .queued, .recursesSkippingOlder: return false
      }
    }

    /// Whether nested writes recurse, and so nesting is bounded
    /// (``OpenChoiceBackend/recursionBound``).
    var recurses: Bool { self == .recursesSkippingOlder || splits }
  }

  /// What a recursing list does with a write nested deeper than the bound it declares
  /// (``OpenChoiceBackend/recursionBound``): the contract leaves it to the backend, and no rule
  /// but ERR-02 and ERR-03 (for a backend that declares a trap or a report) nests that deep.
  enum PastTheBound: Hashable, Sendable {
    /// It recurses as at any depth, until the stack runs out.
    case recurses
    /// It stores the value and delivers it to nobody.
    case storesWithoutDelivering
  }

  /// What releasing the last reference to a token does.
  enum TokenRelease: Hashable, Sendable {
    /// It cancels, declaring `cancelsOnTokenDeinit`.
    case cancelsAndDeclared
    /// It cancels, without declaring it.
    case cancels
    /// The observation goes on until the subject ends or completes.
    case keepsObserving
  }

  final class Entry {
    var handler: ((Int) -> Void)?
    var onCompletion: (() -> Void)?
    /// Writes made before it registered: it gets only later ones.
    let start: Int
    /// The number of the latest write it was called with.
    var latest = 0
    /// With a split nested write, the writes it has yet to get, oldest first, each with the
    /// handler it was queued for.
    var waiting: [(number: Int, value: Int, handler: (Int) -> Void)] = []
    init(handler: @escaping (Int) -> Void, onCompletion: (() -> Void)?, start: Int) {
      self.handler = handler
      self.onCompletion = onCompletion
      self.start = start
      latest = start
    }
  }

  final class Token: ObservationToken {
    weak var owner: OpenChoiceObservers?
    /// Weak: the subject owns its entries, so that its death releases every handler.
    weak var entry: Entry?
    let cancelsOnRelease: Bool
    init(owner: OpenChoiceObservers, entry: Entry, cancelsOnRelease: Bool) {
      self.owner = owner
      self.entry = entry
      self.cancelsOnRelease = cancelsOnRelease
    }
    deinit { if cancelsOnRelease { cancel() } }
    func cancel() {
      guard let entry else { return }
      owner?.remove(entry)
    }
  }

  let choices: Choices
  private var stored: Int
  /// With willSet, the number of the write whose value is stored (with didSet, the latest).
  private var storedNumber = 0
  private var entries: [Entry] = []
  private var released = 0
  private var writes = 0
  private var pending: [(number: Int, value: Int)] = []
  /// Deliveries under way: broadcasts, and replays where they count as deliveries.
  private var delivering = 0
  private var completed = false
  /// A completion requested during a delivery, whose handlers run when it returns.
  private var completionPending = false
  /// The writes whose broadcasts are under way, innermost last.
  private var inFlight: [(number: Int, value: Int)] = []

  init(_ initialValue: Int, choices: Choices) {
    stored = initialValue
    self.choices = choices
  }

  var value: Int {
    get { stored }
    set {
      guard !completed else {
        if choices.valueAfterCompletion == .stored { stored = newValue }
        return
      }
      writes += 1
      let number = writes
      if choices.nestedWrite.splits {
        stored = newValue
        if choices.pastTheBound == .storesWithoutDelivering
          && delivering > OpenChoiceBackend.recursionBound
        {
          return
        }
        splitBroadcast((number, newValue))
        return
      }
      if choices.nestedWrite == .recursesSkippingOlder {
        if !choices.willSet { stored = newValue }
        if choices.pastTheBound == .storesWithoutDelivering
          && delivering > OpenChoiceBackend.recursionBound
        {
          (stored, storedNumber) = (newValue, number)
          return
        }
        delivering += 1
        broadcast((number, newValue))
        delivering -= 1
        if choices.willSet && (writes == number || choices.storesOuterValueLast) {
          (stored, storedNumber) = (newValue, number)
        }
        deliveryReturned()
        return
      }
      // With willSet, only a write made from a callback stores before its callbacks (REE-05).
      if !choices.willSet || delivering > 0 { (stored, storedNumber) = (newValue, number) }
      pending.append((number, newValue))
      guard delivering == 0 else { return }
      deliverPending()
    }
  }

  /// Delivers the queued writes, as the outermost call.
  private func deliverPending() {
    delivering += 1
    while !pending.isEmpty && !completed {
      let write = pending.removeFirst()
      broadcast(write)
      if choices.willSet { (stored, storedNumber) = (write.value, write.number) }
    }
    pending.removeAll()
    delivering -= 1
    deliveryReturned()
  }

  private func broadcast(_ write: (number: Int, value: Int)) {
    // Observers appended meanwhile registered after the write (their start says so).
    inFlight.append(write)
    defer { inFlight.removeLast() }
    var index = 0
    while index < entries.count && !completed {
      let entry = entries[index]
      if entry.start < write.number && entry.latest < write.number,
        let handler = entry.handler
      {
        entry.latest = write.number
        handler(write.value)
      }
      index += 1
    }
  }

  /// A write, split: every observer registered before it waits for it; those the outer write
  /// already reached get it at once, the rest when the outer broadcast reaches them
  /// (interleaved) or once it is over.
  private func splitBroadcast(_ write: (number: Int, value: Int)) {
    let recipients = entries.filter { $0.handler != nil && $0.start < write.number }
    for entry in recipients {
      entry.waiting.append((write.number, write.value, entry.handler!))
    }
    delivering += 1
    // In registration order: from the first observer the outer write has yet to reach, every
    // later one (those subscribed during the outer broadcast too) waits.
    var reachedSoFar = true
    for entry in recipients where !completed {
      // Cancelled since the write: it gets this write no more.
      guard entry.handler != nil else {
        if entry.waiting.first?.number == write.number { entry.waiting.removeFirst() }
        continue
      }
      reachedSoFar = reachedSoFar && entry.waiting.first?.number == write.number
      guard reachedSoFar else { continue }
      if choices.nestedWrite == .splitInterleaved {
        while entry.handler != nil && !entry.waiting.isEmpty && !completed {
          deliverWaiting(entry)
        }
      } else {
        deliverWaiting(entry)
      }
    }
    // The outermost broadcast is over: the writes that waited for it, oldest first.
    if delivering == 1 {
      while !completed,
        let entry = entries.filter({ !$0.waiting.isEmpty }).min(by: {
          $0.waiting[0].number < $1.waiting[0].number
        })
      {
        deliverWaiting(entry)
      }
    }
    delivering -= 1
    deliveryReturned()
  }

  /// Calls `entry` with the oldest write it waits for (the fault: with the handler it was
  /// queued for, even if cancelled since).
  private func deliverWaiting(_ entry: Entry) {
    let next = entry.waiting.removeFirst()
    entry.latest = next.number
    if choices.nestedWrite == .splitAfterBroadcastReachingCancelled {
      next.handler(next.value)
    } else {
      entry.handler?(next.value)
    }
  }

  /// What waits for the outermost delivery to return: a deferred completion, then compaction.
  private func deliveryReturned() {
    guard delivering == 0 else { return }
    if completionPending {
      completionPending = false
      completeLiveObservers()
    }
    compact()
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    register(handler, onCompletion: nil)
  }

  func observe(_ handler: @escaping (Int) -> Void, onCompletion: @escaping () -> Void) -> Token {
    register(handler, onCompletion: onCompletion)
  }

  private func register(_ handler: @escaping (Int) -> Void, onCompletion: (() -> Void)?) -> Token {
    // The replay: the stored value, or (by choice, during a broadcast) the value under delivery.
    // Replayed with willSet: every write after the stored one, the one under delivery too.
    var replay = (number: choices.willSet && choices.replays ? storedNumber : writes, value: stored)
    if choices.replays && choices.lateReplay != .storedValue, let current = inFlight.last {
      replay = (choices.lateReplay == .valueInFlight ? current.number : writes, current.value)
    }
    let entry = Entry(handler: handler, onCompletion: onCompletion, start: replay.number)
    let token = Token(
      owner: self, entry: entry, cancelsOnRelease: choices.tokenRelease != .keepsObserving)
    if completed {
      entry.handler = nil
      entry.onCompletion = nil
      onCompletion?()
      return token
    }
    entries.append(entry)
    guard choices.replays else { return token }
    switch choices.replayWrite {
    case .queuedUntilReplayReturns:
      delivering += 1
      handler(replay.value)
      delivering -= 1
      if delivering == 0 && !pending.isEmpty && !completed {
        deliverPending()
      } else {
        deliveryReturned()
      }
    case .deliveredAtOnce:
      handler(replay.value)
    }
    return token
  }

  func complete() {
    guard !completed else { return }
    completed = true
    pending.removeAll()
    for entry in entries { entry.waiting.removeAll() }
    if delivering > 0 && choices.callbackCompletion == .whenDeliveryReturns {
      completionPending = true
      return
    }
    completeLiveObservers()
  }

  /// Runs each live observer's completion handler once, in the chosen order, releasing it
  /// first; an observer a completion handler cancels before its turn gets none.
  private func completeLiveObservers() {
    let live = entries.filter { $0.handler != nil }
    for entry in choices.completionOrder == .registration ? live : live.reversed()
    where entry.handler != nil {
      entry.handler = nil
      let onCompletion = entry.onCompletion.take()
      released += 1
      onCompletion?()
    }
    compact()
  }

  var valueAfterCompletion: ValueAfterCompletionPolicy { choices.valueAfterCompletion }

  private func remove(_ entry: Entry) {
    guard entry.handler != nil else { return }
    if choices.nestedWrite != .splitAfterBroadcastReachingCancelled { entry.waiting.removeAll() }
    entry.handler = nil
    entry.onCompletion = nil
    released += 1
    compact()
  }

  /// Drops released entries once they are half the list (never during delivery), so that
  /// releasing 100,000 tokens is not quadratic.
  private func compact() {
    guard delivering == 0 && released * 2 > entries.count else { return }
    entries.removeAll { $0.handler == nil }
    released = 0
  }
}

/// A backend of ``OpenChoiceObservers``, declaring what every such list promises.
struct OpenChoiceBackend: ObservationBackend {
  let choices: OpenChoiceObservers.Choices

  var name: String { choices.name }

  var capabilities: BackendCapabilities {
    var flags: Set<Capability> = [
      .synchronousDelivery, .preservesObserverOrder, .immediateCancellation,
      .supportsCompletion,
    ]
    if choices.replays { flags.insert(.replaysCurrentValue) }
    if choices.nestedWrite == .queuedAndDeclared {
      flags.formUnion([.deliversEveryValue, .preservesValueOrderUnderReentrancy])
    }
    if choices.tokenRelease == .cancelsAndDeclared { flags.insert(.cancelsOnTokenDeinit) }
    if choices.nestedWrite.splits { flags.insert(.deliversEveryValue) }
    let recurses = choices.nestedWrite.recurses
    return BackendCapabilities(
      timing: choices.willSet ? .willSet : .didSet, flags,
      maxReentrancyDepth: recurses ? .bounded(Self.recursionBound) : .unbounded)
  }

  /// How deep a recursing list declares that nested writes may go: each nests a broadcast on
  /// the stack.
  static let recursionBound = 256

  func makeSubject(initialValue: Int) -> OpenChoiceObservers {
    OpenChoiceObservers(initialValue, choices: choices)
  }

  /// The correct twins of each open point a synchronous list meets, named by the point.
  static let twins: [(point: String, first: OpenChoiceBackend, second: OpenChoiceBackend)] = [
    (
      "a write made from a replay callback",
      OpenChoiceBackend(choices: .init(replays: true, replayWrite: .queuedUntilReplayReturns)),
      OpenChoiceBackend(choices: .init(replays: true, replayWrite: .deliveredAtOnce))
    ),
    (
      "the replay to an observer subscribed during the delivery of a write, willSet",
      OpenChoiceBackend(choices: .init(replays: true, lateReplay: .storedValue, willSet: true)),
      OpenChoiceBackend(choices: .init(replays: true, lateReplay: .valueInFlight, willSet: true))
    ),
    (
      "the replay to an observer subscribed during the delivery of a write",
      OpenChoiceBackend(choices: .init(replays: true, lateReplay: .storedValue)),
      OpenChoiceBackend(choices: .init(replays: true, lateReplay: .valueInFlight))
    ),
    (
      "a completion requested from a value callback",
      OpenChoiceBackend(choices: .init(callbackCompletion: .atOnce)),
      OpenChoiceBackend(choices: .init(callbackCompletion: .whenDeliveryReturns))
    ),
    (
      "the order observers are completed in",
      OpenChoiceBackend(choices: .init(completionOrder: .registration)),
      OpenChoiceBackend(choices: .init(completionOrder: .reverse))
    ),
    (
      "a write made from a value callback, neither every value nor value order declared",
      OpenChoiceBackend(choices: .init(nestedWrite: .queued)),
      OpenChoiceBackend(choices: .init(nestedWrite: .recursesSkippingOlder))
    ),
    (
      "a write made from a value callback, every value delivered, value order not declared",
      OpenChoiceBackend(choices: .init(nestedWrite: .splitInterleaved)),
      OpenChoiceBackend(choices: .init(nestedWrite: .splitAfterBroadcast))
    ),
    (
      "a write after completion",
      OpenChoiceBackend(choices: .init(valueAfterCompletion: .frozen)),
      OpenChoiceBackend(choices: .init(valueAfterCompletion: .stored))
    ),
    (
      "when a willSet list stores a write made from a callback",
      OpenChoiceBackend(choices: .init(willSet: true)),
      OpenChoiceBackend(choices: .init(nestedWrite: .recursesSkippingOlder, willSet: true))
    ),
    (
      "a write nested deeper than the declared bound",
      OpenChoiceBackend(choices: .init(nestedWrite: .recursesSkippingOlder)),
      OpenChoiceBackend(
        choices: .init(nestedWrite: .recursesSkippingOlder, pastTheBound: .storesWithoutDelivering))
    ),
    (
      "releasing the last reference to a token, cancelsOnTokenDeinit not declared",
      OpenChoiceBackend(choices: .init(tokenRelease: .cancels)),
      OpenChoiceBackend(choices: .init(tokenRelease: .keepsObserving))
    ),
  ]
}
