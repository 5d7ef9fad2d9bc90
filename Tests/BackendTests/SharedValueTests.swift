import AsyncShareBackend
import ObservationCore
import Testing

/// `async-share`: what the adapter does, seen without the conformance suite.
@Suite("share() observers")
struct SharedValueTests {
  let backend = AsyncShareStrategy()

  @Test("A write arrives when the thread's loop runs, not inside the setter; no replay")
  func deliveryOnTheLoop() async {
    await OwnThread.run { Self().deliveryOnTheLoopBody() }
  }

  private func deliveryOnTheLoopBody() {
    let subject = SharedValue(0)
    var received: [Int] = []
    let token = subject.observe { received.append($0) }
    subject.value = 1
    subject.value = 2
    #expect(received.isEmpty)
    #expect(backend.awaitDelivery(until: { received.count == 2 }, timeout: .seconds(10)))
    #expect(received == [1, 2])
    withExtendedLifetime(token) {}
  }

  @Test("Every observer subscribed before a write receives it, though share() runs elsewhere")
  func everyObserverReceives() async {
    await OwnThread.run { Self().everyObserverReceivesBody() }
  }

  private func everyObserverReceivesBody() {
    let subject = SharedValue(0)
    var received: [[Int]] = Array(repeating: [], count: 8)
    let tokens = (0..<8).map { index in subject.observe { received[index].append($0) } }
    for value in 1...5 { subject.value = value }
    #expect(
      backend.awaitDelivery(
        until: { received.allSatisfy { $0.count == 5 } }, timeout: .seconds(10)))
    #expect(received.allSatisfy { $0 == [1, 2, 3, 4, 5] })
    withExtendedLifetime(tokens) {}
  }

  @Test("A wait for a delivery that cannot come ends once share() has handed everything on")
  func waitEndsWhenSettled() async {
    await OwnThread.run { Self().waitEndsWhenSettledBody() }
  }

  private func waitEndsWhenSettledBody() {
    let subject = SharedValue(0)
    var received: [Int] = []
    let token = subject.observe { received.append($0) }
    subject.value = 1
    let clock = ContinuousClock()
    let start = clock.now
    // Asks for a second value that nobody writes: the wait must not last its 10 s.
    #expect(!backend.awaitDelivery(until: { received.count == 2 }, timeout: .seconds(10)))
    #expect(clock.now - start < .seconds(5))
    #expect(received == [1])
    withExtendedLifetime(token) {}
  }

  @Test("Cancel ends the observer: a later write never arrives, and the handler is released")
  func cancelEndsTheObserver() async {
    await OwnThread.run { Self().cancelEndsTheObserverBody() }
  }

  private func cancelEndsTheObserverBody() {
    let subject = SharedValue(0)
    var received: [Int] = []
    weak var released: AnyObject?
    let token: SharedValueToken
    do {
      let witness = Witness()
      released = witness
      token = subject.observe { value in withExtendedLifetime(witness) { received.append(value) } }
    }
    subject.value = 1
    #expect(backend.awaitDelivery(until: { received == [1] }, timeout: .seconds(10)))
    token.cancel()
    subject.value = 2
    #expect(backend.awaitScheduledDeliveries(timeout: .seconds(10)))
    #expect(received == [1])
    #expect(released == nil)
  }

  @Test("Releasing the token ends the observer as cancel does")
  func releaseEndsTheObserver() async {
    await OwnThread.run { Self().releaseEndsTheObserverBody() }
  }

  private func releaseEndsTheObserverBody() {
    let subject = SharedValue(0)
    var received: [Int] = []
    var token: SharedValueToken? = subject.observe { received.append($0) }
    subject.value = 1
    #expect(backend.awaitDelivery(until: { received == [1] }, timeout: .seconds(10)))
    withExtendedLifetime(token) {}
    token = nil
    subject.value = 2
    #expect(backend.awaitScheduledDeliveries(timeout: .seconds(10)))
    #expect(received == [1])
  }

  private final class Witness {}
}

extension SharedValueTests {
  @Test("A value set before anyone observed reaches the first observer")
  func earlierValueReachesFirstObserver() async {
    await OwnThread.run { Self().earlierValueReachesFirstObserverBody() }
  }

  private func earlierValueReachesFirstObserverBody() {
    let subject = SharedValue(0)
    subject.value = 3
    var received: [Int] = []
    let token = subject.observe { received.append($0) }
    #expect(backend.awaitScheduledDeliveries(timeout: .seconds(10)))
    #expect(received == [3])
    withExtendedLifetime(token) {}
  }
}

extension SharedValueTests {
  @Test("A cancel right after a write comes after share() has handed the value on")
  func cancelAfterWriteComesAfterHandOff() async {
    await OwnThread.run { Self().cancelAfterWriteComesAfterHandOffBody() }
  }

  private func cancelAfterWriteComesAfterHandOffBody() {
    // Without the setter's and the cancel's waits, share()'s task sometimes hands 1 on after
    // the cancel, which then removes the side first: repeated so that such a run would show.
    for attempt in 0..<200 {
      let subject = SharedValue(0)
      var received: [Int] = []
      let token = subject.observe { received.append($0) }
      subject.value = 1
      token.cancel()
      #expect(backend.awaitScheduledDeliveries(timeout: .seconds(10)))
      #expect(received == [1], "attempt \(attempt)")
      if received != [1] { return }
    }
  }

  @Test("observe never calls the handler, even when share() hands a value over at once")
  func observeNeverCallsTheHandler() async {
    await OwnThread.run { Self().observeNeverCallsTheHandlerBody() }
  }

  private func observeNeverCallsTheHandlerBody() {
    // The value set before observe is in the source: share()'s task takes it as soon as the
    // new side waits, sometimes before the side's task has suspended.
    for attempt in 0..<200 {
      let subject = SharedValue(0)
      subject.value = 3
      var received: [Int] = []
      let token = subject.observe { received.append($0) }
      #expect(received.isEmpty, "attempt \(attempt)")
      #expect(backend.awaitDelivery(until: { received == [3] }, timeout: .seconds(10)))
      withExtendedLifetime(token) {}
      if received != [3] { return }
    }
  }
}
