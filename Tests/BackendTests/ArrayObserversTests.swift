import ObservationCore
import Testing

@testable import ArrayBackend

@Suite("ArrayObservers")
struct ArrayObserversTests {
  @Test("Cancelling during delivery leaves a tombstone that is compacted when delivery ends")
  func tombstonesAreCompacted() {
    let subject = ArrayObservers(0)
    var tokens: [ArrayObservers<Int>.Token] = []
    var calls: [Int] = []
    for id in 0..<4 {
      tokens.append(
        subject.observe { value in
          calls.append(id)
          if id == 1 && value == 1 {
            tokens[1].cancel()
            tokens[2].cancel()
            #expect(subject._entries.count == 4)
            #expect(subject._tombstones == 2)
            #expect(subject.observerCount == 2)
          }
        })
    }
    subject.value = 1
    #expect(calls == [0, 1, 3])
    #expect(subject._entries.count == 2)
    #expect(subject._tombstones == 0)
    #expect(subject._entries.map(\.id) == [0, 3])
    // The observers capture the subject and the tokens: cancelling breaks that cycle.
    for token in tokens { token.cancel() }
  }

  @Test("Entries stay sorted by registration number, so binary search finds each one")
  func binarySearchAfterRemovals() {
    let subject = ArrayObservers(0)
    let tokens = (0..<100).map { _ in subject.observe { _ in } }
    for index in stride(from: 0, to: 100, by: 3) { tokens[index].cancel() }
    // The tokens cancel on release, which an optimized build may do right after their last use.
    withExtendedLifetime(tokens) {
      for (position, entry) in subject._entries.enumerated() {
        #expect(subject._index(of: entry.id) == position)
      }
      #expect(subject._index(of: 0) == nil)
      #expect(subject.observerCount == 66)
    }
  }

  @Test("Registration does not call the handler")
  func noReplay() {
    let subject = ArrayObservers(5)
    var received: [Int] = []
    let token = subject.observe { received.append($0) }
    #expect(received.isEmpty)
    subject.value = 6
    #expect(received == [6])
    withExtendedLifetime(token) {}
  }
}
