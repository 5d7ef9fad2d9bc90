import Foundation
import ObservationCore
import Synchronization

/// A thread-safe observer list that coalesces writes, as `Observations` does: a write only
/// marks the value changed, and the next turn hands every observer the latest value once. The
/// turn is taken when the suite waits for delivery
/// (``CoalescingBackend/awaitDelivery(until:timeout:)``).
final class CoalescingObservers: ObservableValue, RemovesObservers, @unchecked Sendable {
  typealias Token = RemovingToken<CoalescingObservers>

  private struct State {
    var value: Int
    var handlers: [Int: (Int) -> Void] = [:]
    var nextID = 0
    var changed = false
  }

  /// Subjects changed since the last turn, across every subject.
  private static let changedSubjects = Mutex<[CoalescingObservers]>([])

  private let state: Mutex<State>

  init(_ initialValue: Int) { state = Mutex(State(value: initialValue)) }

  var value: Int {
    get { state.withLock { $0.value } }
    set {
      let first = state.withLock { state in
        state.value = newValue
        defer { state.changed = true }
        return !state.changed
      }
      if first { Self.changedSubjects.withLock { $0.append(self) } }
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    let id = state.withLock { state in
      state.nextID += 1
      state.handlers[state.nextID] = handler
      return state.nextID
    }
    return Token(id: id, owner: self)
  }

  func remove(_ id: Int) { _ = state.withLock { $0.handlers.removeValue(forKey: id) } }

  /// Hands each changed subject's observers its latest value, outside the lock.
  static func takeTurn() {
    let changed = changedSubjects.withLock { changed in
      defer { changed = [] }
      return changed
    }
    for subject in changed {
      let (value, handlers) = subject.state.withLock { state in
        state.changed = false
        return (state.value, state.handlers.sorted { $0.key < $1.key }.map(\.value))
      }
      for handler in handlers { handler(value) }
    }
  }
}

/// A backend of ``CoalescingObservers``: thread-safe and transactional, so neither every value
/// nor synchronous delivery.
struct CoalescingBackend: ObservationBackend {
  var name: String { "coalescing" }

  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .transactional, [.threadSafe, .immediateCancellation, .cancelsOnTokenDeinit],
      maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> CoalescingObservers { CoalescingObservers(initialValue) }

  func awaitDelivery(until condition: () -> Bool, timeout: Duration) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while !condition() {
      guard clock.now < deadline else { return false }
      CoalescingObservers.takeTurn()
      if !condition() { Thread.sleep(forTimeInterval: 0.001) }
    }
    return true
  }
}
