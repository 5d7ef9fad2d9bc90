import ObservationCore
import Testing

/// A registration of the test values below: cancelling drops the handler.
final class HandlerToken<Value>: ObservationToken {
  var handler: ((Value) -> Void)?
  init(_ handler: @escaping (Value) -> Void) { self.handler = handler }
  func cancel() { handler = nil }
}

/// `flatMapLatest` over handles whose replay arrives later, on another turn.
@Suite("Chaining over deferred replay")
struct ChainingTests {
  /// Replays each new observer's current value, and delivers writes, only when `turn()` runs:
  /// a minimal asynchronous backend.
  final class TurnBasedValue<Value>: ObservableValue {
    private var tokens: [HandlerToken<Value>] = []
    private var scheduled: [() -> Void] = []
    private let loop: Loop

    var value: Value {
      didSet {
        let snapshot = value
        for token in tokens { loop.schedule { token.handler?(snapshot) } }
      }
    }

    init(_ value: Value, loop: Loop) {
      self.value = value
      self.loop = loop
    }

    var replaysLater: Bool { true }

    func observe(_ handler: @escaping (Value) -> Void) -> HandlerToken<Value> {
      let token = HandlerToken(handler)
      tokens.append(token)
      let current = value
      loop.schedule { token.handler?(current) }
      return token
    }
  }

  /// The deferred work of every `TurnBasedValue`, in order.
  final class Loop {
    private var work: [() -> Void] = []
    func schedule(_ item: @escaping () -> Void) { work.append(item) }
    func turn() {
      while !work.isEmpty { work.removeFirst()() }
    }
  }

  final class Player {
    let title: TurnBasedValue<String>
    init(_ title: String, loop: Loop) { self.title = TurnBasedValue(title, loop: loop) }
  }

  @Test("The current leaf arrives once, on the next turn, and the result replays later too")
  func currentValueOnce() {
    let loop = Loop()
    let root = TurnBasedValue<Player?>(Player("a", loop: loop), loop: loop)
    let title = root.eraseToAnyObservable()
      .flatMapLatest { $0.map { $0.title.eraseToAnyObservable() } }
    #expect(title.replaysLater)
    var received: [String?] = []
    let token = title.observe { received.append($0) }
    #expect(received.isEmpty)
    loop.turn()
    #expect(received == ["a"])

    root.value?.title.value = "b"
    loop.turn()
    root.value = Player("x", loop: loop)
    loop.turn()
    root.value = nil
    loop.turn()
    #expect(received == ["a", "b", "x", nil])
    withExtendedLifetime(token) {}
  }

  @Test("A synchronous handle is still read at once")
  func synchronousHandle() {
    final class Box: ObservableValue {
      final class Token: ObservationToken { func cancel() {} }
      var value = 7
      func observe(_ handler: @escaping (Int) -> Void) -> Token { Token() }
    }
    let box = Box()
    let chained = box.eraseToAnyObservable().flatMapLatest { _ in box.eraseToAnyObservable() }
    #expect(!chained.replaysLater)
    var received: [Int?] = []
    let token = chained.observe { received.append($0) }
    #expect(received == [7])
    withExtendedLifetime(token) {}
  }
}

/// `flatMapLatest` over synchronous handles, released from inside its own handler.
@Suite("Chaining, released from its own handler")
struct ChainReleaseTests {
  /// Delivers each write at once to the handlers registered then and still registered.
  final class ImmediateValue<Value>: ObservableValue {
    private var tokens: [HandlerToken<Value>] = []

    var value: Value {
      didSet { for token in tokens { token.handler?(value) } }
    }

    init(_ value: Value) { self.value = value }

    var replaysLater: Bool { false }

    func observe(_ handler: @escaping (Value) -> Void) -> HandlerToken<Value> {
      let token = HandlerToken(handler)
      tokens.append(token)
      handler(value)
      return token
    }
  }

  @Test(
    "Releasing the last reference to a chain's token inside its handler cancels at once: a write the handler makes next does not reach it"
  )
  func releaseInsideHandler() {
    let first = ImmediateValue("a")
    let second = ImmediateValue("x")
    let root = ImmediateValue<ImmediateValue<String>?>(first)
    var received: [String?] = []
    var token: AnyObservationToken?
    token = AnyObservable(root).flatMapLatest { $0.map { AnyObservable($0) } }.observe { value in
      received.append(value)
      guard value == "x" else { return }
      token = nil
      second.value = "y"
    }
    root.value = second
    #expect(received == ["a", "x"])
    // Before the chain's token was an object of its own, the running chain kept itself alive
    // and registered: "y" arrived after the release.
    second.value = "z"
    #expect(received == ["a", "x"])
    _ = token
  }
}
