import ObservationCore

/// One event of a concurrent history (THR-09): a call starting or returning, or a callback.
enum HistoryEvent: Sendable {
  case setStarted(Int)
  case setReturned(Int)
  case observeStarted(observer: Int)
  case observeReturned(observer: Int)
  case cancelStarted(observer: Int)
  case cancelReturned(observer: Int)
  /// A callback started, with this value, for this observer.
  case delivered(Int, to: Int)
}

/// The events of one concurrent run, appended under one lock: an event's index is its place
/// in one sequence every thread agrees on.
///
/// A call's start is recorded before the call and its return after it, so the recorded window
/// holds the real one: when one recorded window ends before another begins, the real calls
/// did not overlap either, and the checker's conclusions from the indices are safe.
final class HistoryLog: @unchecked Sendable {
  private let events = Locked<[HistoryEvent]>([])

  func record(_ event: HistoryEvent) { events.withLock { $0.append(event) } }

  var recorded: [HistoryEvent] { events.withLock { $0 } }

  /// The values observer `id` has received so far, in callback order.
  func deliveries(to id: Int) -> [Int] {
    events.withLock { events in
      events.compactMap { event in
        if case .delivered(let value, let observer) = event, observer == id { return value }
        return nil
      }
    }
  }
}

/// A concurrent history checked against a sequential model built from the declaration, the
/// way a linearizability checker checks a history against a sequential specification.
///
/// Writer threads set distinct values (``value(thread:step:)``), so each callback names its
/// write. For each observer, the history must be one some serialization of the writes allows:
///
/// - only values that were set, each at most once (a replay counted too);
/// - real-time order: a value whose `set` returned before another's `set` started is not
///   delivered after it (each thread's writes in program order are the commonest case);
/// - with synchronous delivery on every thread, no value whose `set` returned before the
///   observer's `observe` started (its callbacks were over by then);
/// - nothing whose callback starts after the observer's `cancel` returned, except, without
///   `immediateCancellation`, the value each writer had in flight then (its `set` had started),
///   and with `cancelsOnLaterTurn` every value whose `set` started before the cancel returned;
/// - with `deliversEveryValue`, every value whose `set` started after `observe` returned and,
///   with synchronous delivery on every thread, returned before `cancel` started (without it,
///   every such value to an observer that is never cancelled: it has had its turns);
/// - with `replaysCurrentValue`, one callback may be the replay: a value current at some point
///   during `observe` (one whose `set` started before `observe` returned and that no write
///   definitely superseded before `observe` started), exempt from order.
///
/// And `get` after every thread returned gives a write no other write started after.
struct ConcurrentHistory {
  /// What the declaration lets a history contain.
  struct Model {
    let everyValue: Bool
    let replays: Bool
    let immediateCancellation: Bool
    /// A cancel takes effect on the backend's later turn: every value whose `set` started
    /// before it returned may still arrive.
    let cancelsOnLaterTurn: Bool
    /// Every callback of a `set` has run when it returns, on every thread: synchronous
    /// delivery without a hand-off of contended writes.
    let synchronous: Bool

    init(_ declared: BackendCapabilities) {
      everyValue = declared.has(.deliversEveryValue)
      replays = declared.has(.replaysCurrentValue)
      immediateCancellation = declared.has(.immediateCancellation)
      cancelsOnLaterTurn = declared.has(.cancelsOnLaterTurn)
      synchronous =
        declared.has(.synchronousDelivery) && !declared.has(.handsOffContendedWrites)
    }
  }

  /// What a history broke, in the catalogue's words.
  struct Violation {
    let expected: String
    let observed: String
  }

  private struct Write {
    let thread: Int
    let step: Int
    /// Indices of its `set` starting and returning.
    let started: Int
    var returned: Int
  }

  private struct Observer {
    let id: Int
    var observeStarted = 0
    var observeReturned: Int?
    var cancelStarted: Int?
    var cancelReturned: Int?
    /// Values in callback order, with the index of each callback's start.
    var deliveries: [(value: Int, index: Int)] = []
  }

  /// Values of one writer thread are spaced this far apart.
  static let threadStride = 100_000

  /// The `step`-th value (from 1) written by writer `thread` (from 0).
  static func value(thread: Int, step: Int) -> Int { (thread + 1) * threadStride + step }

  private let initialValue: Int
  private var writes: [Int: Write] = [:]
  private var observers: [Int: Observer] = [:]

  /// The history of `events`, on a subject that held `initialValue` before them.
  init(_ events: [HistoryEvent], initialValue: Int) {
    self.initialValue = initialValue
    for (index, event) in events.enumerated() {
      switch event {
      case .setStarted(let value):
        writes[value] = Write(
          thread: value / Self.threadStride - 1, step: value % Self.threadStride, started: index,
          returned: .max)
      case .setReturned(let value):
        writes[value]?.returned = index
      case .observeStarted(let id):
        observers[id] = Observer(id: id, observeStarted: index)
      case .observeReturned(let id):
        observers[id]?.observeReturned = index
      case .cancelStarted(let id):
        observers[id]?.cancelStarted = index
      case .cancelReturned(let id):
        observers[id]?.cancelReturned = index
      case .delivered(let value, let id):
        observers[id]?.deliveries.append((value, index))
      }
    }
  }

  /// How many observers the history has, and how many callbacks they had.
  var size: (observers: Int, callbacks: Int) {
    (observers.count, observers.values.reduce(0) { $0 + $1.deliveries.count })
  }

  /// The first violation of each observer whose history `model` does not allow, by observer.
  func violations(of model: Model) -> [Violation] {
    observers.keys.sorted().compactMap { id in violation(of: observers[id]!, model) }
  }

  /// Whether `value`, read after every call returned, is a write no other write started after
  /// (or the initial value, when nothing was set).
  func finalValueViolation(_ value: Int) -> Violation? {
    let expected = "get returns a thread's last write, one no other set started after"
    guard let write = writes[value] else {
      if writes.isEmpty && value == initialValue { return nil }
      return Violation(expected: expected, observed: "get returned \(value), which was not set")
    }
    if let later = writes.first(where: { $0.value.started > write.returned }) {
      return Violation(
        expected: expected,
        observed: "get returned \(describe(value)), though \(describe(later.key)) was set after")
    }
    return nil
  }

  /// `value` with the write it names: `200007 (thread 1's set 7)`.
  private func describe(_ value: Int) -> String {
    guard let write = writes[value] else {
      return value == initialValue ? "the initial value \(value)" : "\(value)"
    }
    return "\(value) (thread \(write.thread)'s set \(write.step))"
  }

  /// The first way `observer`'s history breaks `model`, trying as the replay each callback
  /// whose value may have been current at some point during `observe`: its `set` started
  /// before `observe` returned, and no write that started after it returned had itself
  /// returned before `observe` started.
  private func violation(of observer: Observer, _ model: Model) -> Violation? {
    guard model.replays else { return violation(of: observer, model, replay: nil) }
    let returned = observer.observeReturned ?? .max
    // The latest start of a write that returned before observe started: a write that
    // returned before that start was no longer current during observe.
    let superseding =
      writes.values.filter { $0.returned < observer.observeStarted }.map(\.started).max() ?? -1
    let candidates = observer.deliveries.indices.filter { position in
      let delivery = observer.deliveries[position]
      guard !model.synchronous || delivery.index < returned else { return false }
      guard let write = writes[delivery.value] else {
        return delivery.value == initialValue && superseding < 0
      }
      return write.started < returned && write.returned > superseding
    }
    var first: Violation?
    for replay in candidates.map(Optional.some) + [nil] {
      guard let found = violation(of: observer, model, replay: replay) else { return nil }
      first = first ?? found
    }
    return first
  }

  /// The first way `observer`'s history breaks `model` with the callback at `replay` (if any)
  /// taken for the replay.
  private func violation(of observer: Observer, _ model: Model, replay: Int?) -> Violation? {
    let name = "#\(observer.id)"
    // Each value received, with the index of its first callback.
    var seen: [Int: Int] = [:]
    // The delivered write whose set started last: a write that returned before it started
    // must not come after it.
    var latest: (started: Int, value: Int)?
    var lateThreads: Set<Int> = []
    for (position, delivery) in observer.deliveries.enumerated() {
      let value = delivery.value
      if let first = seen[value] {
        return Violation(
          expected: "\(name) gets each value at most once",
          observed: "\(describe(value)) twice, first at event \(first), then"
            + " \(context(delivery, observer))")
      }
      seen[value] = delivery.index
      if position == replay { continue }
      guard let write = writes[value] else {
        return Violation(
          expected: "\(name) gets only values that were set",
          observed: "\(value) \(context(delivery, observer))")
      }
      if let latest, write.returned < latest.started {
        let order =
          writes[latest.value]?.thread == write.thread
          ? "its thread set it first" : "its set returned before that one's started"
        return Violation(
          expected: "\(name) gets values in an order some serialization of the writes allows"
            + " (each thread's in the order it set them)",
          observed: "\(describe(value)) after \(describe(latest.value)), though \(order)")
      }
      if write.started > latest?.started ?? -1 { latest = (write.started, value) }
      if model.synchronous && write.returned < observer.observeStarted {
        return Violation(
          expected: "\(name) gets no value whose set returned before it subscribed"
            + (model.replays ? ", but the replay" : ""),
          observed: "\(describe(value)) \(context(delivery, observer))")
      }
      if let cancelReturned = observer.cancelReturned, delivery.index > cancelReturned {
        let inFlight =
          !model.immediateCancellation && write.started < cancelReturned
          && (model.cancelsOnLaterTurn || lateThreads.insert(write.thread).inserted)
        guard inFlight else {
          return Violation(
            expected: "nothing for \(name) after its cancel returned"
              + (model.cancelsOnLaterTurn
                ? " but values whose set started before it returned (cancelsOnLaterTurn)"
                : model.immediateCancellation
                  ? "" : " but the value each writer had in flight then"),
            observed: "\(describe(value)) \(context(delivery, observer))")
        }
      }
    }
    guard model.everyValue, let observeReturned = observer.observeReturned else { return nil }
    let owed = writes.filter { _, write in
      guard write.started > observeReturned else { return false }
      guard let cancelStarted = observer.cancelStarted else { return true }
      return model.synchronous && write.returned < cancelStarted
    }
    let missing = owed.keys.filter { seen[$0] == nil }.sorted()
    guard let first = missing.first else { return nil }
    return Violation(
      expected: "\(name) gets every value set while it was subscribed (deliversEveryValue)",
      observed: "\(missing.count) of \(owed.count) missing, first \(describe(first)); \(name)"
        + " subscribed at event \(observeReturned)"
        + (observer.cancelStarted.map { ", cancelled at event \($0)" } ?? ""))
  }

  /// Where a callback came in `observer`'s history, for a message.
  private func context(_ delivery: (value: Int, index: Int), _ observer: Observer) -> String {
    var words = "at event \(delivery.index)"
    words += "; #\(observer.id) subscribed at events \(observer.observeStarted)"
    words += "–\(observer.observeReturned.map(String.init) ?? "?")"
    if let started = observer.cancelStarted {
      words += ", cancelled at \(started)–\(observer.cancelReturned.map(String.init) ?? "?")"
    }
    if let write = writes[delivery.value] {
      words += ", its set at \(write.started)–\(write.returned == .max ? "?" : "\(write.returned)")"
    }
    return words
  }
}
