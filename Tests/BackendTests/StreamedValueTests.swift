import AsyncStreamBackend
import ObservationCore
import Testing

/// `async-stream`: what the adapter does, seen without the conformance suite.
@Suite("AsyncStream observers")
struct StreamedValueTests {
  let backend = AsyncStreamStrategy()

  @Test("A write arrives when the thread's run loop runs, not inside the setter; no replay")
  func deliveryOnTheRunLoop() {
    let subject = StreamedValue(0)
    var received: [Int] = []
    let token = subject.observe { received.append($0) }
    subject.value = 1
    subject.value = 2
    #expect(received.isEmpty)
    #expect(backend.awaitDelivery(until: { received.count == 2 }, timeout: .seconds(10)))
    #expect(received == [1, 2])
    withExtendedLifetime(token) {}
  }

  @Test("Cancel finishes the stream: a later write never arrives, and the handler is released")
  func cancelEndsTheObserver() {
    let subject = StreamedValue(0)
    var received: [Int] = []
    weak var released: AnyObject?
    let token: StreamedValueToken
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
  func releaseEndsTheObserver() {
    let subject = StreamedValue(0)
    var received: [Int] = []
    var token: StreamedValueToken? = subject.observe { received.append($0) }
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
