import ObservationCore
import Testing

@testable import DenseBackend

/// White-box checks of ``DenseObservers``: what its slot map and compaction must keep.
@Suite("DenseObservers")
struct DenseObserversTests {
  @Test("Compaction keeps registration order, and tokens still cancel the right observer")
  func compactionKeepsOrderAndTokens() {
    let subject = DenseObservers(0)
    var seen: [Int] = []
    var tokens = (0..<10).map { id in subject.observe { _ in seen.append(id) } }
    // Cancelling 0, 2, 4, 6, 8 and 1 crosses the half-array threshold: a compaction moves the
    // survivors.
    for id in [0, 2, 4, 6, 8, 1] { tokens[id].cancel() }
    subject.value = 1
    #expect(seen == [3, 5, 7, 9])
    seen = []
    tokens[7].cancel()
    subject.value = 2
    #expect(seen == [3, 5, 9])
    #expect(subject.observerCount == 3)
    tokens.removeAll()
    #expect(subject.observerCount == 0)
  }

  @Test(
    "During a walk, a self-cancelling callback keeps its captures; subscriptions wait their turn")
  func walkKeepsContextsAlive() {
    final class Box {
      var tokens: [DenseObservers<Int>.Token] = []
      var log: [String] = []
    }
    let subject = DenseObservers(0)
    let box = Box()
    var late: [DenseObservers<Int>.Token] = []
    // Observer 0 cancels itself and observer 2 (its own closure must outlive the call: the
    // walk calls closures without retaining them, so the backend keeps a closure cancelled
    // mid-walk until the walk ends), reads a string only its context owns, and subscribes 100
    // observers, far past the allocation's capacity.
    var keptDuringTheWalk: [Int] = []
    func firstObserver() -> (Int) -> Void {
      let name = String(repeating: "first", count: 8)  // on the heap, not a small string
      return { [box] value in
        box.tokens[0].cancel()
        box.tokens[2].cancel()
        keptDuringTheWalk.append(subject._retired.count)
        box.log.append("\(name.prefix(5)) \(value)")
        for id in 0..<100 where value == 1 {
          late.append(subject.observe { box.log.append("late \(id) \($0)") })
        }
      }
    }
    box.tokens.append(subject.observe(firstObserver()))
    box.tokens.append(subject.observe { [box] in box.log.append("second \($0)") })
    box.tokens.append(subject.observe { [box] in box.log.append("third \($0)") })
    subject.value = 1
    #expect(box.log == ["first 1", "second 1"])
    // Both cancelled closures were kept until the walk ended, then released.
    #expect(keptDuringTheWalk == [2])
    #expect(subject._retired.isEmpty)
    box.log = []
    subject.value = 2
    #expect(box.log == ["second 2"] + (0..<100).map { "late \($0) 2" })
    #expect(subject.observerCount == 101)
    late.removeAll()
    box.tokens.removeAll()
    #expect(subject.observerCount == 0)
  }

  @Test("A stale token does not cancel the observer that reused its slot")
  func staleTokenAfterSlotReuse() {
    let subject = DenseObservers(0)
    var values: [Int] = []
    let old = subject.observe { _ in }
    old.cancel()
    let new = subject.observe { values.append($0) }
    old.cancel()
    subject.value = 5
    #expect(values == [5])
    withExtendedLifetime(new) {}
  }

  @Test("A write made during delivery reaches only the observers registered before it")
  func queuedWriteSkipsLaterObservers() {
    let subject = DenseObservers(0)
    var log: [String] = []
    var late: DenseObservers<Int>.Token?
    let first = subject.observe { value in
      log.append("first:\(value)")
      if value == 1 {
        subject.value = 2
        late = subject.observe { log.append("late:\($0)") }
      }
    }
    let second = subject.observe { log.append("second:\($0)") }
    subject.value = 1
    subject.value = 3
    #expect(log == ["first:1", "second:1", "first:2", "second:2", "first:3", "second:3", "late:3"])
    withExtendedLifetime((first, second, late)) {}
  }

  @Test("Replay is a per-subject option, before observe returns, with nested writes queued")
  func replayOption() {
    let plain = DenseObservers(4)
    var plainValues: [Int] = []
    let plainToken = plain.observe { plainValues.append($0) }
    #expect(plainValues == [])
    let replaying = DenseObservers(4, replaysCurrentValue: true)
    var values: [Int] = []
    let token = replaying.observe { value in
      values.append(value)
      if value == 4 { replaying.value = 5 }
    }
    #expect(values == [4, 5])
    #expect(replaying.value == 5)
    withExtendedLifetime((plainToken, token)) {}
  }

  @Test("A handle observes until removed: dropping it ends nothing, removing it twice is harmless")
  func handlesLastUntilRemoved() {
    let subject = DenseObservers(0)
    var values: [Int] = []
    var handles = [subject.addObserver { values.append($0) }]
    handles.removeAll()
    subject.value = 1
    #expect(values == [1])
    #expect(subject.observerCount == 1)
    let handle = subject.addObserver { values.append($0 * 10) }
    subject.value = 2
    subject.removeObserver(handle)
    subject.removeObserver(handle)
    subject.value = 3
    #expect(values == [1, 2, 20, 3])
    #expect(subject.observerCount == 1)
  }

  @Test("A removed handle does not reach the observer that reused its slot, nor a token's")
  func staleHandleAfterSlotReuse() {
    let subject = DenseObservers(0)
    var values: [Int] = []
    let old = subject.addObserver { _ in }
    subject.removeObserver(old)
    let token = subject.observe { values.append($0) }
    subject.removeObserver(old)
    let reused = subject.addObserver { values.append(-$0) }
    token.cancel()
    subject.removeObserver(old)
    subject.value = 5
    #expect(values == [-5])
    subject.removeObserver(reused)
    #expect(subject.observerCount == 0)
  }

  @Test("Handles and tokens mix: a handle removed during delivery is not called after, in order")
  func handlesRemovedDuringDelivery() {
    let subject = DenseObservers(0, replaysCurrentValue: true)
    var log: [String] = []
    var second: DenseObservers<Int>.Handle?
    let first = subject.addObserver { value in
      log.append("first:\(value)")
      if value == 1, let second { subject.removeObserver(second) }
    }
    second = subject.addObserver { log.append("second:\($0)") }
    let third = subject.observe { log.append("third:\($0)") }
    subject.value = 1
    subject.value = 2
    #expect(
      log == [
        "first:0", "second:0", "third:0", "first:1", "third:1", "first:2", "third:2",
      ])
    subject.removeObserver(first)
    withExtendedLifetime(third) {}
  }
}
