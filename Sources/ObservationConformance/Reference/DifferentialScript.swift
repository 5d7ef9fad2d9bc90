import ObservationCore

/// The scripts DIFF-01 replays, and what replaying one records.
///
/// A script works on one subject, or on two (A and B) whose observers' callbacks write each
/// other: every step and operation is A's unless it says "other" (an observer of B, a write to
/// B, or, from a callback, a write to the subject its observer does not watch).
enum DifferentialScript {
  /// One operation of the contract, made from inside a callback.
  enum Operation: CustomStringConvertible {
    case write(Int)
    /// Writes the other subject: B from an observer of A, A from an observer of B.
    case writeOther(Int)
    /// Cancels the observer with this id, if it exists by then: one registered before the
    /// reacting observer, or after it (drawn past the ids known when the script was made).
    case cancel(Int)
    case cancelSelf
    /// Drops the script's reference to the token of the observer with this id, without
    /// cancelling it: with `cancelsOnTokenDeinit` its last reference, so that the release
    /// cancels; otherwise the token is kept aside and the observer stays registered.
    case release(Int)
    case releaseSelf
    case subscribe(Int)
    /// Completes the subject (a completable backend).
    case complete

    var description: String {
      switch self {
      case .write(let value): return "write \(value)"
      case .writeOther(let value): return "write \(value) to the other subject"
      case .cancel(let id): return "cancel #\(id)"
      case .cancelSelf: return "cancel itself"
      case .release(let id): return "release #\(id)"
      case .releaseSelf: return "release its own token"
      case .subscribe(let id): return "subscribe #\(id)"
      case .complete: return "complete"
      }
    }
  }

  /// What an observer does, once, from one of its callbacks: one operation, or several in a
  /// row inside the same callback.
  struct Reaction: CustomStringConvertible {
    var operations: [Operation]

    var description: String { operations.map(\.description).joined(separator: ", then ") }
  }

  /// Which of an observer's callbacks reacts.
  enum Trigger: CustomStringConvertible {
    /// Its `n`-th value callback; on a replaying backend the first is the replay.
    case value(Int)
    /// Its completion handler (a completable backend).
    case completion

    /// The callback's number among the observer's value callbacks, or 1 for a completion.
    var count: Int {
      if case .value(let count) = self { return count }
      return 1
    }

    var description: String {
      switch self {
      case .value(let count): return "callback \(count)"
      case .completion: return "on completion"
      }
    }
  }

  /// One top-level step of a script.
  enum Step: CustomStringConvertible {
    case observe(Int, Reaction?, trigger: Trigger)
    /// Observes B (a two-subject script).
    case observeOther(Int, Reaction?, trigger: Trigger)
    /// Observes the object-level will-change signal of the object A and B are properties of (an
    /// aggregate script); the reaction, on the signal its trigger counts, cancels or releases
    /// the observer itself.
    case observeObject(Int, Reaction?, trigger: Trigger)
    case cancel(Int)
    case release(Int)
    case write(Int)
    /// Sets B (a two-subject script).
    case writeOther(Int)
    /// Completes the subject (a completable backend).
    case complete
    /// Lets an asynchronous backend deliver what it has pending (its
    /// ``ObservationBackend/awaitDelivery(until:timeout:)``), until every live observer that
    /// owes the latest value has it.
    case deliver

    var description: String {
      switch self {
      case .observe(let id, let reaction, let trigger):
        return "observe #\(id)" + (reaction.map { " (\(trigger): \($0))" } ?? "")
      case .observeOther(let id, let reaction, let trigger):
        return "observe B as #\(id)" + (reaction.map { " (\(trigger): \($0))" } ?? "")
      case .observeObject(let id, let reaction, let trigger):
        return "observe the object's will-change signal as #\(id)"
          + (reaction.map { " (signal \(trigger.count): \($0))" } ?? "")
      case .cancel(let id): return "cancel #\(id)"
      case .release(let id): return "release #\(id)"
      case .write(let value): return "set \(value)"
      case .writeOther(let value): return "set B = \(value)"
      case .complete: return "complete"
      case .deliver: return "deliver"
      }
    }
  }

  /// Which operations a callback may make, and which steps a script may use: only those whose
  /// outcome the declaration fixes (or, for the delivery properties, bounds).
  struct Reactions: CustomStringConvertible {
    /// Nested writes: not when the backend bounds nesting below what a script can reach.
    var writes: Bool
    /// Cancels from a callback: for the exact comparison only with immediate cancellation
    /// (otherwise the in-flight value may or may not arrive); the delivery properties allow
    /// that one value.
    var cancels: Bool
    /// Releasing a token from a callback: a cancel where releasing cancels (so, for the exact
    /// comparison, only with immediate cancellation), otherwise nothing the observer notices.
    var releases: Bool
    /// Subscribing from a callback.
    var subscribes: Bool
    /// Completing, as a step and from a callback, and reactions in completion handlers: a
    /// completable backend (``CompletableObservableValue``) that declares `supportsCompletion`.
    var completes: Bool
    /// Whether the script has `deliver` steps (a backend without synchronous delivery).
    var delivers: Bool
    /// Whether every value written is new (the delivery properties tell writes apart by value).
    var uniqueValues: Bool
    /// Whether the script has a second subject: observers of B, writes to B, and callbacks
    /// that write the subject their observer does not watch.
    var writesOther = false
    /// Whether the script has observers of the object-level will-change signal of the object
    /// A and B are properties of (an aggregate script): registered as steps, cancelled and
    /// released by any callback, and cancelling or releasing themselves from a signal.
    var observesObject = false

    /// The reactions for the exact comparison with ``ReferenceObservers``: synchronous
    /// backends that deliver every value. Without declared observer order the model follows
    /// the backend's order within each broadcast, so reactions need no order.
    static func exact(_ declared: BackendCapabilities, completable: Bool) -> Reactions {
      let immediate = declared.has(.immediateCancellation)
      // A replay during delivery may send the stored value or the one in flight (SUB-02): the
      // model follows the backend, telling the two apart by value, so such scripts write each
      // value once (with willSet, the stored value is the one before the write in flight, and
      // an observer replayed it gets that write from the broadcast). Not where duplicate
      // writes are what a script exercises.
      let replays = declared.has(.replaysCurrentValue)
      let followsReplays = replays && !declared.has(.suppressesDuplicates)
      return Reactions(
        writes: nestedWritesFit(declared), cancels: immediate,
        releases: immediate || !declared.has(.cancelsOnTokenDeinit),
        subscribes: !replays || followsReplays, completes: completable, delivers: false,
        uniqueValues: followsReplays)
    }

    /// The reactions for the delivery properties (``DeliveryProperties``): asynchronous or
    /// coalescing backends. Subscribing is always allowed: the properties accept a late
    /// observer's replayed values within bounds. A completable backend completes too.
    static func properties(_ declared: BackendCapabilities, completable: Bool) -> Reactions {
      Reactions(
        writes: nestedWritesFit(declared), cancels: true, releases: true, subscribes: true,
        completes: completable, delivers: !declared.has(.synchronousDelivery),
        uniqueValues: true)
    }

    /// Whether a script's nested writes fit within the declared reentrancy bound.
    static func nestedWritesFit(_ declared: BackendCapabilities) -> Bool {
      switch declared.maxReentrancyDepth {
      case .unbounded: return true
      case .bounded(let depth): return depth >= 16
      }
    }

    /// Whether a callback may make `operation`.
    func allows(_ operation: Operation) -> Bool {
      switch operation {
      case .write: return writes
      case .writeOther: return writesOther
      case .cancel, .cancelSelf: return cancels
      case .release, .releaseSelf: return releases
      case .subscribe: return subscribes
      case .complete: return completes
      }
    }

    var description: String {
      let used = [
        (writes, "nested writes"), (cancels, "cancels of any observer"),
        (releases, "token releases"), (subscribes, "subscribes"),
        (completes, "completion (as a step, from callbacks, and reactions in completion handlers)"),
        (writesOther, "a second subject whose observers' callbacks write the first, and back"),
        (observesObject, "observers of the object-level will-change signal"),
        (true, "up to 3 operations in one callback"),
      ]
      .filter(\.0).map(\.1)
      return used.joined(separator: ", ")
    }
  }

  /// SplitMix64: small, seedable and the same on every platform.
  ///
  /// A copy of `ObservationWorkloads.SplitMix64`, kept on purpose: this module does not depend
  /// on the workloads, and a random generator has no place in the contract both depend on.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// How far past the ids known at generation a callback's cancel may reach: a target drawn
  /// there is an observer registered after the reacting one, if one exists when it fires.
  static let laterTargets = 6

  /// The script of `seed`.
  ///
  /// - Complexity: O(`length`).
  static func steps(seed: UInt64, length: Int, reactions: Reactions) -> [Step] {
    var generator = SeededGenerator(state: seed)
    return steps(using: &generator, length: length, reactions: reactions)
  }

  /// The script `generator` draws: a seeded generator's (DIFF-01), or a fuzzer's bytes
  /// (``DifferentialFuzzer``).
  ///
  /// - Complexity: O(`length`).
  static func steps(
    using generator: inout some RandomNumberGenerator, length: Int, reactions: Reactions
  ) -> [Step] {
    var steps: [Step] = []
    var nextID = 0
    var lastValue = 0
    func value(in range: Range<Int>) -> Int {
      guard reactions.uniqueValues else { return Int.random(in: range, using: &generator) }
      lastValue += 1
      return lastValue
    }
    /// One operation for a callback, or `nil` when the one drawn is not allowed.
    func operation() -> Operation? {
      let drawn: Operation
      // A two-subject script draws from two more cases; a one-subject script's draws are
      // those it always had, so its seeds give the same scripts.
      switch Int.random(in: 0..<(reactions.writesOther ? 11 : 9), using: &generator) {
      case 0: drawn = .cancel(Int.random(in: 1...nextID + laterTargets, using: &generator))
      case 1: drawn = .cancelSelf
      case 2:
        nextID += 1
        drawn = .subscribe(nextID)
      case 3: drawn = .release(Int.random(in: 1...nextID + laterTargets, using: &generator))
      case 4: drawn = .releaseSelf
      // Completing ends every delivery after it: drawn rarely, so that scripts go on.
      case 5 where Int.random(in: 0..<3, using: &generator) == 0: drawn = .complete
      case 9, 10: drawn = .writeOther(value(in: 4000..<6000))
      default: drawn = .write(value(in: 1000..<3000))
      }
      return reactions.allows(drawn) ? drawn : nil
    }
    for index in 0..<length {
      switch Int.random(in: 0..<10, using: &generator) {
      case 0...2:
        nextID += 1
        let id = nextID
        let trigger: Trigger =
          reactions.completes && Int.random(in: 0..<4, using: &generator) == 0
          ? .completion : .value(Int.random(in: 1...3, using: &generator))
        var operations: [Operation] = []
        if Int.random(in: 0..<9, using: &generator) < 5 {
          // One operation most often, sometimes two or three in the same callback.
          let count = [1, 1, 1, 2, 2, 3][Int.random(in: 0..<6, using: &generator)]
          operations = (0..<count).compactMap { _ in operation() }
        }
        let reaction = operations.isEmpty ? nil : Reaction(operations: operations)
        // An aggregate script draws one more choice: an observer of the object's signal, whose
        // reaction is to end itself (a one-shot listener).
        if reactions.observesObject && Int.random(in: 0..<4, using: &generator) == 0 {
          let ending: [Operation] = [
            reactions.cancels ? .cancelSelf : nil, reactions.releases ? .releaseSelf : nil,
          ].compactMap { $0 }
          let own =
            ending.isEmpty || Bool.random(using: &generator)
            ? nil : Reaction(operations: [ending.randomElement(using: &generator)!])
          steps.append(
            .observeObject(id, own, trigger: .value(Int.random(in: 1...3, using: &generator))))
        } else if reactions.writesOther && Bool.random(using: &generator) {
          steps.append(.observeOther(id, reaction, trigger: trigger))
        } else {
          steps.append(.observe(id, reaction, trigger: trigger))
        }
      case 3: steps.append(.cancel(Int.random(in: 1...max(1, nextID), using: &generator)))
      case 4: steps.append(.release(Int.random(in: 1...max(1, nextID), using: &generator)))
      case 5 where reactions.delivers: steps.append(.deliver)
      // A top-level completion, late in a script and rarely, for the same reason.
      case 6
      where reactions.completes && index > length / 2
        && Int.random(in: 0..<8, using: &generator) == 0:
        steps.append(.complete)
      default:
        if reactions.writesOther && Int.random(in: 0..<3, using: &generator) == 0 {
          steps.append(.writeOther(value(in: 3000..<3100)))
        } else {
          steps.append(.write(value(in: 0..<100)))
        }
      }
    }
    if reactions.delivers { steps.append(.deliver) }
    return steps
  }

  /// What replaying a script records, in the order it happened.
  enum Event: Equatable, CustomStringConvertible {
    /// Observer `observer`'s callback, with its argument.
    case callback(observer: Int, value: Int)
    /// `get` after a top-level step.
    case read(Int)
    /// The object-level will-change signal, to the observer of it with this id, and what A and
    /// B read inside it (an aggregate script).
    case willChange(observer: Int, a: Int, b: Int)
    /// The subject's own `observerCount` after a top-level step, where it has one.
    case observerCount(Int)
    /// A write, just before the `set` that makes it.
    case write(Int)
    /// A write to B, just before the `set` that makes it (a two-subject script).
    case writeOther(Int)
    /// `get` on B after a top-level step (a two-subject script).
    case readOther(Int)
    /// The `set` of the write under way returned.
    case writeReturned
    case observeStarted(Int)
    case observeReturned(Int)
    /// A cancel (or a release that cancels) starts; `inCallback` when a callback makes it.
    case cancelStarted(Int, inCallback: Bool)
    case cancelReturned(Int)
    /// A `deliver` step ended: the backend was given its turns.
    case delivered
    /// Observer `observer`'s completion handler ran.
    case completion(observer: Int)
    /// A completion (a step's or a callback's) starts.
    case completeStarted
    case completeReturned

    /// Whether the exact comparison compares it: callbacks (values and completions) and reads.
    var isCompared: Bool {
      switch self {
      case .callback, .read, .readOther, .completion, .observerCount: return true
      default: return false
      }
    }

    var description: String {
      switch self {
      case .callback(let observer, let value): return "#\(observer):\(value)"
      case .read(let value): return "| get \(value)"
      case .observerCount(let count): return "| observerCount \(count)"
      case .write(let value): return "set \(value)"
      case .writeOther(let value): return "set B = \(value)"
      case .readOther(let value): return "| get B \(value)"
      case .writeReturned: return "set returned"
      case .observeStarted(let id): return "observe #\(id)"
      case .observeReturned(let id): return "observe #\(id) returned"
      case .cancelStarted(let id, let inCallback):
        return "cancel #\(id)" + (inCallback ? " from a callback" : "")
      case .cancelReturned(let id): return "cancel #\(id) returned"
      case .delivered: return "delivered"
      case .completion(let observer): return "#\(observer):completed"
      case .willChange(let observer, let a, let b):
        return "#\(observer):will change (A \(a), B \(b))"
      case .completeStarted: return "complete"
      case .completeReturned: return "complete returned"
      }
    }
  }

  /// A script's record, appended to from whichever thread a backend calls back on.
  final class Log: @unchecked Sendable {
    private struct State {
      var events: [Event] = []
      var compared = 0
      var writes = 0
      var completes = 0
      var properties: DeliveryProperties?
      /// B's delivery properties, in a two-subject script.
      var otherProperties: DeliveryProperties?
      /// The observers of B, by id.
      var observersOfOther: Set<Int> = []
    }
    private let state: Locked<State>

    /// A record that also checks the delivery properties as events arrive, when given them:
    /// A's, and in a two-subject script B's (each subject's events go to its own).
    init(checking properties: DeliveryProperties? = nil, other: DeliveryProperties? = nil) {
      state = Locked(State(properties: properties, otherProperties: other))
    }

    /// Notes that observer `id` observes B, before its `observe` begins.
    func observesOther(_ id: Int) {
      state.withLock { _ = $0.observersOfOther.insert(id) }
    }

    func append(_ event: Event) {
      state.withLock { state in
        state.events.append(event)
        if event.isCompared { state.compared += 1 }
        switch event {
        case .write, .writeOther: state.writes += 1
        default: break
        }
        if case .completeStarted = event { state.completes += 1 }
        let index = state.events.count - 1
        guard state.otherProperties != nil else {
          state.properties?.record(event, at: index)
          return
        }
        // Each subject's properties hear its writes, reads and observers; both hear a turn.
        switch event {
        case .writeOther(let value): state.otherProperties?.record(.write(value), at: index)
        case .readOther(let value): state.otherProperties?.record(.read(value), at: index)
        case .delivered:
          state.properties?.record(event, at: index)
          state.otherProperties?.record(event, at: index)
        case .callback(let id, _), .observeStarted(let id), .observeReturned(let id),
          .cancelStarted(let id, _), .cancelReturned(let id), .completion(let id):
          if state.observersOfOther.contains(id) {
            state.otherProperties?.record(event, at: index)
          } else {
            state.properties?.record(event, at: index)
          }
        default:
          state.properties?.record(event, at: index)
        }
      }
    }

    var events: [Event] { state.withLock { $0.events } }
    /// The callbacks and reads, as the exact comparison sees them.
    var compared: [Event] { state.withLock { $0.events.filter(\.isCompared) } }
    /// How many callbacks and reads so far.
    var comparedCount: Int { state.withLock { $0.compared } }
    /// How many writes so far, to either subject.
    var writeCount: Int { state.withLock { $0.writes } }
    /// How many completions requested so far (the one starting included).
    var completeCount: Int { state.withLock { $0.completes } }
    /// Whether every live observer that owes the latest value has it, of either subject.
    var isSettled: Bool {
      state.withLock {
        ($0.properties?.isSettled ?? true) && ($0.otherProperties?.isSettled ?? true)
      }
    }
    /// The first violated delivery property, of either subject, with the index of the event
    /// that showed it.
    var violation: DeliveryProperties.Violation? {
      state.withLock { state in
        [state.properties?.violation, state.otherProperties?.violation].compactMap { $0 }
          .min { $0.index < $1.index }
      }
    }
  }

  /// Runs `steps` on `subject` (A) and, for a two-subject script, `other` (B), recording in
  /// `log`.
  ///
  /// `willObserve` hears each observer's id, and whether it observes B, just before its
  /// `observe` (the reference model labels its entries with it); `deliver` runs a `deliver`
  /// step. A released token is dropped
  /// when releasing cancels; otherwise it is kept aside (a backend that does not cancel on
  /// release would keep the observer either way) and cancelled at the end with the others.
  /// With `completable`, every observer registers a completion handler too; with
  /// `countsObservers`, the subject's `observerCount` is read after each step as well. With
  /// `objectSignal` (an aggregate script, A and B properties of one object), an
  /// `observeObject` step registers for the object's will-change signal through it.
  static func run(
    _ steps: [Step], on subject: TestSubject<Int>, other: TestSubject<Int>? = nil,
    objectSignal: ((@escaping () -> Void) -> AnyObservationToken?)? = nil,
    cancelsOnRelease: Bool, completable: Bool, countsObservers: Bool = false, log: Log,
    willObserve: @escaping (_ id: Int, _ observesOther: Bool) -> Void = { _, _ in },
    deliver: () -> Void = {}
  ) {
    let tokens = Locked<[Int: AnyObservationToken]>([:])
    let released = Locked<[AnyObservationToken]>([])
    func write(_ value: Int, toOther: Bool = false) {
      guard !toOther || other != nil else { return }
      log.append(toOther ? .writeOther(value) : .write(value))
      (toOther ? other! : subject).value = value
      log.append(.writeReturned)
    }
    func cancel(_ id: Int, inCallback: Bool) {
      guard let token = tokens.withLock({ $0[id] }) else { return }
      log.append(.cancelStarted(id, inCallback: inCallback))
      token.cancel()
      log.append(.cancelReturned(id))
    }
    func release(_ id: Int, inCallback: Bool) {
      if cancelsOnRelease {
        guard tokens.withLock({ $0[id] != nil }) else { return }
        log.append(.cancelStarted(id, inCallback: inCallback))
        // The token's last reference goes here (the ledger holds tokens weakly), once the lock
        // is given back.
        _ = tokens.withLock { $0.removeValue(forKey: id) }
        log.append(.cancelReturned(id))
      } else if let token = tokens.withLock({ $0.removeValue(forKey: id) }) {
        released.withLock { $0.append(token) }
      }
    }
    func complete(other completingOther: Bool = false) {
      log.append(.completeStarted)
      (completingOther ? other ?? subject : subject).complete?()
      log.append(.completeReturned)
    }
    /// Runs `reaction` in a callback of observer `id`, which observes B when `onOther`: its
    /// writes, subscriptions and completion are of the subject it observes.
    func react(_ reaction: Reaction, as id: Int, onOther: Bool) {
      for operation in reaction.operations {
        switch operation {
        case .write(let value): write(value, toOther: onOther)
        case .writeOther(let value): write(value, toOther: !onOther)
        case .cancel(let target): cancel(target, inCallback: true)
        case .cancelSelf: cancel(id, inCallback: true)
        case .release(let target): release(target, inCallback: true)
        case .releaseSelf: release(id, inCallback: true)
        case .subscribe(let newID): observe(newID, nil, trigger: .value(0), onOther: onOther)
        case .complete: complete(other: onOther)
        }
      }
    }
    func observe(_ id: Int, _ reaction: Reaction?, trigger: Trigger, onOther: Bool = false) {
      let observed = onOther ? other ?? subject : subject
      let calls = Locked(0)
      let completions = Locked(0)
      if onOther { log.observesOther(id) }
      log.append(.observeStarted(id))
      willObserve(id, onOther)
      let onValue: (Int) -> Void = { value in
        log.append(.callback(observer: id, value: value))
        let count = calls.withLock { calls in
          calls += 1
          return calls
        }
        guard let reaction, case .value(count) = trigger else { return }
        react(reaction, as: id, onOther: onOther)
      }
      let token: AnyObservationToken
      if completable, let observeWithCompletion = observed.observeWithCompletion {
        token = observeWithCompletion(onValue) {
          log.append(.completion(observer: id))
          let count = completions.withLock { count in
            count += 1
            return count
          }
          guard let reaction, case .completion = trigger, count == 1 else { return }
          react(reaction, as: id, onOther: onOther)
        }
      } else {
        token = observed.observe(onValue)
      }
      tokens.withLock { $0[id] = token }
      log.append(.observeReturned(id))
    }
    /// Registers `id` for the object's signal, where the script has one (the model has none:
    /// its record of the step is empty).
    func observeObject(_ id: Int, _ reaction: Reaction?, trigger: Trigger) {
      guard let objectSignal else { return }
      let signals = Locked(0)
      log.append(.observeStarted(id))
      let token = objectSignal {
        log.append(.willChange(observer: id, a: subject.get(), b: other?.get() ?? 0))
        let count = signals.withLock { count in
          count += 1
          return count
        }
        guard let reaction, count == trigger.count else { return }
        react(reaction, as: id, onOther: false)
      }
      if let token { tokens.withLock { $0[id] = token } }
      log.append(.observeReturned(id))
    }
    for step in steps {
      switch step {
      case .observe(let id, let reaction, let trigger): observe(id, reaction, trigger: trigger)
      case .observeObject(let id, let reaction, let trigger):
        observeObject(id, reaction, trigger: trigger)
      case .observeOther(let id, let reaction, let trigger):
        observe(id, reaction, trigger: trigger, onOther: true)
      case .cancel(let id): cancel(id, inCallback: false)
      case .release(let id): release(id, inCallback: false)
      case .write(let value): write(value)
      case .writeOther(let value): write(value, toOther: true)
      case .complete: complete()
      case .deliver:
        deliver()
        log.append(.delivered)
      }
      log.append(.read(subject.value))
      if let other { log.append(.readOther(other.value)) }
      if countsObservers, let count = subject.observerCount { log.append(.observerCount(count())) }
    }
    // Observers capture the subject; cancelling releases them and breaks that cycle.
    for id in tokens.withLock({ $0.keys.sorted() }) { cancel(id, inCallback: false) }
    for token in released.withLock({ $0 }) { token.cancel() }
  }

  /// Where two histories first differ: the event's index and each side's event there.
  static func firstDifference(_ actual: [Event], _ expected: [Event]) -> (Int, String, String) {
    let index =
      zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(actual.count, expected.count)
    return (
      index, index < actual.count ? actual[index].description : "end",
      index < expected.count ? expected[index].description : "end"
    )
  }

  /// The steps up to the one during which event `index` of `events` happened, briefly.
  static func describe(_ steps: [Step], upTo index: Int, in events: [Event]) -> String {
    let completed = events.prefix(index).count {
      if case .read = $0 { return true }
      return false
    }
    let shown = steps.prefix(completed + 1)
    let text = shown.map(\.description).joined(separator: "; ")
    let tail = text.count > 600 ? "…" + String(text.suffix(600)) : text
    return "after \(completed) steps, during step \(completed + 1): \(tail)"
  }
}
