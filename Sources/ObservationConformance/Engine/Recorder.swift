import Foundation

/// One callback as a recorder saw it.
struct Event<Value> {
  /// Which observer was called.
  var observer: Int
  /// The argument.
  var value: Value
  /// What reading the subject inside the callback returned.
  var read: Value?
  /// How many recorded callbacks were on the stack, this one included.
  var depth: Int
}

/// Records callbacks from any thread.
final class Recorder<Value>: @unchecked Sendable {
  private let state = Locked<(events: [Event<Value>], depth: Int)>(([], 0))

  /// A handler for observer `id` that records each call, reading `subject` inside it if given,
  /// and then runs `then`.
  func handler(
    _ id: Int, reading subject: TestSubject<Value>? = nil,
    then action: ((Value) -> Void)? = nil
  ) -> (Value) -> Void {
    { [self] value in
      let read = subject?.get()
      let depth = state.withLock { state in
        state.depth += 1
        return state.depth
      }
      state.withLock {
        $0.events.append(Event(observer: id, value: value, read: read, depth: depth))
      }
      RuleProgress.step()
      action?(value)
      state.withLock { $0.depth -= 1 }
    }
  }

  var events: [Event<Value>] { state.withLock { $0.events } }

  /// The values observer `id` received, in order.
  func values(of id: Int) -> [Value] { events.filter { $0.observer == id }.map(\.value) }

  /// The observers called, in call order.
  var callOrder: [Int] { events.map(\.observer) }

  var count: Int { state.withLock { $0.events.count } }

  func count(of id: Int) -> Int { events.filter { $0.observer == id }.count }

  /// Whether every observer in `observers` was called and received `value` last: what a
  /// backend that coalesces writes has done once it delivered the latest one.
  func lastValues(of observers: Range<Int>, are value: Value) -> Bool where Value: Equatable {
    let events = events
    return observers.allSatisfy { id in events.last { $0.observer == id }?.value == value }
  }

  func reset() { state.withLock { $0.events.removeAll() } }
}

/// A box whose release the memory rules watch through a weak reference.
final class Canary: @unchecked Sendable {
  func touch() {}
}
