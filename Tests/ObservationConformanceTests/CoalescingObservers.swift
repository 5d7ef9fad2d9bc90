import Foundation
import ObservationCore
import Synchronization

@testable import conformance_fixtures

/// The subjects of one ``CoalescingBackend`` value changed since their last turn.
final class CoalescingTurns: Sendable {
  private let changed = Mutex<[CoalescingObservers]>([])

  func markChanged(_ subject: CoalescingObservers) { changed.withLock { $0.append(subject) } }

  /// Hands each changed subject's observers its latest value; returns whether any had changed.
  @discardableResult
  func take() -> Bool {
    let subjects = changed.withLock { changed in
      defer { changed = [] }
      return changed
    }
    for subject in subjects { subject.deliverLatest() }
    return !subjects.isEmpty
  }
}

/// A thread-safe observer list that coalesces writes, as `Observations` does: a write only
/// marks the value changed, and the next turn hands every observer the latest value once. The
/// turn is taken when the suite waits for delivery
/// (``CoalescingBackend/awaitDelivery(until:timeout:)``).
final class CoalescingObservers: ObservableValue, RemovesObservers, @unchecked Sendable {
  typealias Token = RemovingToken<CoalescingObservers>

  enum Fault: String, CaseIterable, Sendable {
    /// The first write after a turn starts takes a copy of the handlers, and the next turn
    /// calls that copy. A cancel takes its observer out of the copy too, except a cancel made
    /// during a turn: an observer cancelled in a turn after a callback wrote still gets that
    /// write on the next turn. Only a callback's write and a cancel in the same turn show it.
    case keepsNextTurnOfObserversCancelledInATurn
  }

  private struct State {
    var value: Int
    var handlers: [Int: (Int) -> Void] = [:]
    var nextID = 0
    var changed = false
    /// The handlers copied at the first write since the last turn started (the fault).
    var captured: [Int: (Int) -> Void]?
    var delivering = false
  }

  private let state: Mutex<State>
  private let turns: CoalescingTurns
  let fault: Fault?

  init(_ initialValue: Int, turns: CoalescingTurns, fault: Fault? = nil) {
    state = Mutex(State(value: initialValue))
    self.turns = turns
    self.fault = fault
  }

  var value: Int {
    get { state.withLock { $0.value } }
    set {
      let first = state.withLock { state in
        state.value = newValue
        defer { state.changed = true }
        if !state.changed && fault == .keepsNextTurnOfObserversCancelledInATurn {
          state.captured = state.handlers
        }
        return !state.changed
      }
      if first { turns.markChanged(self) }
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    let id = state.withLock { state in
      state.nextID += 1
      state.handlers[state.nextID] = handler
      // A copy taken for the next turn includes observers registered since.
      state.captured?[state.nextID] = handler
      return state.nextID
    }
    return Token(id: id, owner: self)
  }

  func remove(_ id: Int) {
    state.withLock { state in
      state.handlers[id] = nil
      if !state.delivering { state.captured?[id] = nil }
    }
  }

  /// Hands each observer the latest value, outside the lock; an observer cancelled before its
  /// turn in the loop is passed over.
  fileprivate func deliverLatest() {
    let (value, ids, captured) = state.withLock { state in
      state.changed = false
      state.delivering = true
      defer { state.captured = nil }
      return (state.value, state.handlers.keys.sorted(), state.captured)
    }
    defer { state.withLock { $0.delivering = false } }
    if let captured {
      for id in captured.keys.sorted() { captured[id]?(value) }
      return
    }
    for id in ids {
      guard let handler = state.withLock({ $0.handlers[id] }) else { continue }
      handler(value)
    }
  }
}

/// A backend of ``CoalescingObservers``: thread-safe and transactional, so neither every value
/// nor synchronous delivery.
struct CoalescingBackend: ObservationBackend {
  let fault: CoalescingObservers.Fault?
  private let turns = CoalescingTurns()

  init(fault: CoalescingObservers.Fault? = nil) { self.fault = fault }

  var name: String { "coalescing" + (fault.map { "-" + $0.rawValue } ?? "") }

  var capabilities: BackendCapabilities {
    // A copy taken at the write cannot stop an observer cancelled during the turn from getting
    // the value: that fault's honest declaration leaves immediate cancellation out.
    BackendCapabilities(
      timing: .transactional,
      fault == nil
        ? [.threadSafe, .immediateCancellation, .cancelsOnTokenDeinit]
        : [.threadSafe, .cancelsOnTokenDeinit],
      maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> CoalescingObservers {
    CoalescingObservers(initialValue, turns: turns, fault: fault)
  }

  /// Takes turns until no subject has changed, or `timeout` passes; returns whether none has.
  ///
  /// The backend sees its own queue (the subjects changed since their last turn), so a check
  /// that nothing more arrives waits exactly for what was written, not the fixed turn of the
  /// protocol's default: with that turn, which ends after 20 ms without a change, THR-02's
  /// drain alone took 29 s of this backend's suite.
  func awaitScheduledDeliveries(timeout: Duration) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while turns.take() {
      guard clock.now < deadline else { return false }
    }
    return true
  }

  /// Takes turns until `condition` holds, `timeout` passes, or no subject has changed for
  /// 20 ms (nothing is left to deliver: only another thread's write could change that).
  func awaitDelivery(until condition: () -> Bool, timeout: Duration) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    var idleSince = clock.now
    while !condition() {
      guard clock.now < deadline else { return false }
      if turns.take() {
        idleSince = clock.now
      } else if clock.now - idleSince > .milliseconds(20) {
        return condition()
      } else {
        Thread.sleep(forTimeInterval: 0.001)
      }
    }
    return true
  }
}
