import ObservationCore

/// What DIFF-01 checks, event by event, on a backend whose deliveries no single history fixes:
/// one without synchronous delivery (asynchronous, or coalescing on a later turn) or one that
/// coalesces. The declaration bounds each observer's history instead:
///
/// - every callback carries a value that was set, each at most once, in write order; with
///   `deliversEveryValue`, with no write skipped;
/// - with `deliversEveryValue`, an observer gets no value set before its `observe` began, even
///   one still pending then (set since the backend's last turn): as with Combine's
///   `receive(on:)`, a write is delivered to the observers it found, never to one that came
///   later. A coalescing backend delivers the state as of its turn, so there an observer may
///   also get a value still pending when it subscribed. With `replaysCurrentValue` it may get
///   the value current when `observe` began (its replay), or any later one;
/// - nothing after its `cancel` (or, with `cancelsOnTokenDeinit`, the token's release) returns,
///   except, without `immediateCancellation`, the value in flight when a callback cancelled it,
///   and, with `cancelsOnLaterTurn`, any value set before the cancel returned (each once, in
///   order: the cancel takes effect on the backend's turn, behind those writes);
/// - once a `deliver` step has given the backend its turns (for a synchronous backend, after
///   every top-level step), every live observer that owes the latest value has it: one
///   registered before the latest write, or any observer of a replaying backend;
/// - `get` after a step returns the last value set (after completion, as the subject's
///   `valueAfterCompletion` says);
/// - on a completable backend: each observer's completion handler runs once, and only once
///   completion was requested; nothing reaches an observer after its completion handler ran,
///   and no value set after completion was requested reaches anyone (values set before it may
///   still arrive, in order, before the handler, or never); an observer whose `observe` began
///   after completion was requested gets the completion before `observe` returns, and no
///   value; after a `deliver` step every observer that was not cancelled has had its
///   completion.
///
/// Values are told apart by value, so the scripts it checks write each value once.
struct DeliveryProperties {
  /// The first property an event broke.
  struct Violation {
    /// The event's index in the script's record.
    let index: Int
    let expected: String
    let observed: String
    /// The sentence of the contract the event breaks, with its rules.
    let sentence: String
  }

  private struct Observer {
    /// Writes made before its `observe` started.
    let writesBefore: Int
    /// Writes made before its `observe` returned (`nil` until it has).
    var writesAtReturn: Int?
    /// The smallest write number it may receive.
    let lowerBound: Int
    /// The write number of the last value it received.
    var last: Int?
    var cancelling = false
    var cancelled = false
    /// Writes made before its cancel returned: with `cancelsOnLaterTurn`, any of them not yet
    /// delivered may still arrive.
    var writesAtCancel: Int?
    /// The write it may still get once after its cancel returned: the one in flight when a
    /// callback cancelled it, without immediate cancellation.
    var inFlightAtCancel: Int?
    /// Whether its `observe` began after completion was requested.
    var subscribedAfterCompletion = false
    /// Whether its completion handler ran.
    var completed = false
  }

  let everyValue: Bool
  let replays: Bool
  let asynchronous: Bool
  let immediateCancellation: Bool
  let cancelsOnLaterTurn: Bool
  /// The subject's value before any write (write 0).
  private let initial: Int
  private var writes: [Int] = []
  /// Each value's write number; the initial value is write 0.
  private var number: [Int: Int]
  private var observers: [Int: Observer] = [:]
  /// Writes made before the backend's last turn: a coalescing backend may still deliver a later
  /// one to an observer that subscribed before its turn.
  private var settledWrites = 0
  /// The write number of the last callback's value: the one in flight during a callback.
  private var lastCallback: Int?
  private(set) var violation: Violation?
  /// What a write after completion does to the stored value.
  let valueAfterCompletion: ValueAfterCompletionPolicy
  /// The writes made before completion was first requested, once it was.
  private var writesAtCompletion: Int?

  init(
    _ declared: BackendCapabilities, initialValue: Int,
    valueAfterCompletion: ValueAfterCompletionPolicy = .stored
  ) {
    self.valueAfterCompletion = valueAfterCompletion
    everyValue = declared.has(.deliversEveryValue)
    replays = declared.has(.replaysCurrentValue)
    asynchronous = !declared.has(.synchronousDelivery)
    immediateCancellation = declared.has(.immediateCancellation)
    cancelsOnLaterTurn = declared.has(.cancelsOnLaterTurn)
    number = [initialValue: 0]
    initial = initialValue
  }

  private func writtenValue(_ index: Int) -> Int { index == 0 ? initial : writes[index - 1] }

  /// Whether every live observer that owes the latest value, or its completion, has it.
  var isSettled: Bool { owingLatest.isEmpty && owingCompletion.isEmpty }

  /// The observers that owe their completion and have not had it: every one not cancelled,
  /// once completion was requested.
  private var owingCompletion: [Int] {
    guard writesAtCompletion != nil else { return [] }
    return observers.filter { !$0.value.cancelling && !$0.value.completed }.keys.sorted()
  }

  /// The live observers that owe the latest value and do not have it yet.
  private var owingLatest: [(id: Int, observer: Observer)] {
    observers.filter { _, observer in
      // After completion nobody owes a value (one still pending may arrive, or not).
      guard writesAtCompletion == nil, let writesAtReturn = observer.writesAtReturn,
        !observer.cancelling
      else {
        return false
      }
      let owes = replays || writes.count > writesAtReturn
      return owes && observer.last != writes.count
    }
    .map { ($0.key, $0.value) }.sorted { $0.id < $1.id }
  }

  /// Takes in the next event of the record, at `index`.
  mutating func record(_ event: DifferentialScript.Event, at index: Int) {
    guard violation == nil else { return }
    switch event {
    case .write(let value):
      writes.append(value)
      number[value] = writes.count
    case .observeStarted(let id):
      let before = writes.count
      observers[id] = Observer(
        writesBefore: before,
        lowerBound: replays ? before : everyValue ? before + 1 : min(before, settledWrites) + 1,
        subscribedAfterCompletion: writesAtCompletion != nil)
    case .observeReturned(let id):
      observers[id]?.writesAtReturn = writes.count
      if observers[id]?.subscribedAfterCompletion == true && observers[id]?.completed == false {
        violation = Violation(
          index: index,
          expected: "#\(id), subscribing after completion was requested, gets the completion"
            + " before observe returns",
          observed: "observe #\(id) returned without it",
          sentence: ContractSentence.lateSubscriberCompleted)
      }
    case .cancelStarted(let id, let inCallback):
      observers[id]?.cancelling = true
      if inCallback && !immediateCancellation && observers[id]?.cancelled == false {
        observers[id]?.inFlightAtCancel = lastCallback
      }
    case .cancelReturned(let id):
      if observers[id]?.cancelled == false { observers[id]?.writesAtCancel = writes.count }
      observers[id]?.cancelled = true
    case .callback(let id, let value):
      received(value, by: id, at: index)
    case .delivered:
      settledWrites = writes.count
      checkLatest(at: index, after: "the backend's turns")
    case .completeStarted:
      if writesAtCompletion == nil { writesAtCompletion = writes.count }
    case .completion(let id):
      completed(id, at: index)
    case .completeReturned, .writeReturned, .observerCount:
      break
    // Another subject's or the object's: a two-subject script's record gives B's writes and
    // reads to B's properties as its own, and aggregate scripts are compared exactly.
    case .writeOther, .readOther, .willChange:
      break
    case .read(let value):
      let latest = writtenValue(
        valueAfterCompletion == .frozen
          ? min(writes.count, writesAtCompletion ?? .max) : writes.count)
      if value != latest {
        violation = Violation(
          index: index, expected: "get returns the last value set, \(latest)",
          observed: "get returned \(value)",
          sentence: writesAtCompletion != nil
            ? "the value after completion follows the declared policy (TERM-05)"
            : "get returns the last value set (REE-03, REE-05)")
        return
      }
      if !asynchronous {
        settledWrites = writes.count
        checkLatest(at: index, after: "the step")
      }
    }
  }

  private mutating func completed(_ id: Int, at index: Int) {
    guard writesAtCompletion != nil else {
      violation = Violation(
        index: index, expected: "a completion handler runs only once completion is requested",
        observed: "#\(id):completed", sentence: ContractSentence.completionOnceToTheLive)
      return
    }
    if immediateCancellation && observers[id]?.cancelled == true {
      violation = Violation(
        index: index,
        expected: "nothing for #\(id) after its cancel returned, not even its"
          + " completion (immediateCancellation)",
        observed: "#\(id):completed", sentence: ContractSentence.nothingAfterCancel)
      return
    }
    guard observers[id]?.completed == false else {
      violation = Violation(
        index: index, expected: "#\(id) completed once",
        observed: "#\(id):completed again", sentence: ContractSentence.completionOnceToTheLive)
      return
    }
    observers[id]?.completed = true
  }

  private mutating func received(_ value: Int, by id: Int, at index: Int) {
    guard var observer = observers[id] else { return }
    guard let written = number[value] else {
      violation = Violation(
        index: index, expected: "only values that were set", observed: "#\(id):\(value)",
        sentence: ContractSentence.valueSet)
      return
    }
    if observer.completed || written > writesAtCompletion ?? .max {
      violation = Violation(
        index: index,
        expected: observer.completed
          ? "nothing for #\(id) after its completion handler ran (TERM-01)"
          : "no value set after completion was requested is delivered",
        observed: "#\(id):\(value)", sentence: ContractSentence.nothingAfterCompletion)
      return
    }
    lastCallback = written
    let name = "#\(id):\(value)"
    if observer.cancelled && observer.inFlightAtCancel == written {
      // The value in flight when a callback cancelled it, once.
      observer.inFlightAtCancel = nil
    } else if observer.cancelled && cancelsOnLaterTurn && written <= observer.writesAtCancel ?? 0 {
      // Set before the cancel returned: the cancel's turn had not come (the order check below
      // still holds it to once, in order).
    } else if observer.cancelled {
      violation = Violation(
        index: index,
        expected: "nothing for #\(id) after its cancel returned"
          + (cancelsOnLaterTurn
            ? " but values set before it returned (cancelsOnLaterTurn)"
            : immediateCancellation ? "" : " but the value in flight then"),
        observed: "\(name) after it"
          + (cancelsOnLaterTurn ? ", set after the cancel returned" : ""),
        sentence: ContractSentence.nothingAfterCancel)
      return
    }
    if written < observer.lowerBound {
      violation = Violation(
        index: index,
        expected: "#\(id) gets only values set after its observe began"
          + (replays ? ", or the one current then (its replay)" : "")
          + (asynchronous && everyValue ? "; a write still pending then is not its own" : "")
          + (asynchronous && !everyValue ? ", or one still pending then" : ""),
        observed: "\(name), set before it subscribed",
        sentence: ContractSentence.onlyObserversRegisteredBefore)
      return
    }
    if let last = observer.last, written <= last {
      violation = Violation(
        index: index, expected: "each value once, in the order set",
        observed: "\(name) after #\(id):\(writtenValue(last))",
        sentence: everyValue
          ? ContractSentence.everyValueInOrder : ContractSentence.coalescedInOrder)
      return
    }
    if everyValue {
      let next = (observer.last ?? observer.writesAtReturn ?? writes.count) + 1
      if written > next && (observer.last != nil || observer.writesAtReturn != nil) {
        violation = Violation(
          index: index, expected: "#\(id):\(writtenValue(next)) first (every value is delivered)",
          observed: "\(name), skipping it", sentence: ContractSentence.everyValueInOrder)
        return
      }
    }
    observer.last = written
    observers[id] = observer
  }

  private mutating func checkLatest(at index: Int, after what: String) {
    if let id = owingCompletion.first {
      violation = Violation(
        index: index,
        expected: "after \(what), #\(id), not cancelled, has had its completion",
        observed: "its completion handler has not run",
        sentence: ContractSentence.completionOnceToTheLive)
      return
    }
    guard let (id, observer) = owingLatest.first else { return }
    let latest = writtenValue(writes.count)
    violation = Violation(
      index: index, expected: "after \(what), #\(id) holds the latest value, \(latest)",
      observed: observer.last.map { "its last value is \(writtenValue($0))" }
        ?? "it received nothing",
      sentence: everyValue ? ContractSentence.everyValueInOrder : ContractSentence.coalescedInOrder)
  }
}
