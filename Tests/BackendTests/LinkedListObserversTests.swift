import ObservationCore
import Testing

@testable import LinkedListBackend

@Suite("LinkedListObservers")
struct LinkedListObserversTests {
  final class Canary {}

  @Test("Releasing a subject with 300,000 observers does not recurse through the list")
  func longListDeinit() {
    var subject: LinkedListObservers<Int>? = LinkedListObservers(0)
    let tokens = (0..<300_000).map { _ in subject!.observe { _ in } }
    #expect(subject!.observerCount == 300_000)
    subject = nil
    // The tokens outlive the subject; cancelling them is a no-op.
    for token in tokens.prefix(10) { token.cancel() }
  }

  @Test("A node unlinked during delivery keeps its link until delivery ends, then drops it")
  func detachedNodesAreReleasedAfterDelivery() throws {
    let subject = LinkedListObservers(0)
    var tokens: [LinkedListObservers<Int>.Token] = []
    var calls: [Int] = []
    for id in 0..<3 {
      tokens.append(
        subject.observe { value in
          calls.append(id)
          if id == 0 && value == 1 {
            tokens[0].cancel()
            tokens[1].cancel()
            #expect(subject._detachedDuringDelivery.count == 2)
          }
        })
    }
    calls.removeAll()
    subject.value = 1
    #expect(calls == [0, 2])
    #expect(subject._detachedDuringDelivery.isEmpty)
    #expect(subject.observerCount == 1)
    let head = try #require(subject._head)
    #expect(head === subject._tail)
    #expect(head.previous == nil && head.next == nil)
    // The observers capture the subject and the tokens: cancelling breaks that cycle.
    for token in tokens { token.cancel() }
  }

  @Test("Unlinking the head, middle and tail keeps the list consistent")
  func unlinkPositions() {
    let subject = LinkedListObservers(0)
    var received: [Int] = []
    let tokens = (0..<5).map { id in subject.observe { _ in received.append(id) } }
    tokens[0].cancel()
    tokens[2].cancel()
    tokens[4].cancel()
    received.removeAll()
    subject.value = 1
    #expect(received == [1, 3])
    #expect(subject.observerCount == 2)
    let late = subject.observe { _ in received.append(9) }
    received.removeAll()
    subject.value = 2
    #expect(received == [1, 3, 9])
    withExtendedLifetime((tokens, late)) {}
  }

  @Test("A token does not keep the subject alive, and cancel after the subject is gone is a no-op")
  func tokenDoesNotRetainSubject() {
    var subject: LinkedListObservers<Int>? = LinkedListObservers(0)
    weak let watched = subject
    var canary: Canary? = Canary()
    weak let watchedCanary = canary
    let token = subject!.observe { [canary] _ in _ = canary }
    canary = nil
    subject = nil
    #expect(watched == nil)
    #expect(watchedCanary == nil)
    token.cancel()
  }
}
