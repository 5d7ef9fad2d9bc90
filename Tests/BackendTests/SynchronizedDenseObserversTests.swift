import Dispatch
import Foundation
import ObservationCore
import Synchronization
import Testing

@testable import DenseBackend

/// White-box checks of ``SynchronizedDenseObservers``: the emitter loop's hand-offs and the one
/// wait, each made deterministic by holding the emitter inside a callback.
@Suite("SynchronizedDenseObservers")
struct SynchronizedDenseObserversTests {
  /// A subject whose first observer, on value 1, signals `entered` and waits for `release`.
  final class HeldEmitter: @unchecked Sendable {
    let subject: SynchronizedDenseObservers<Int>
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let written = DispatchSemaphore(value: 0)
    let log = Log()
    var tokens: [SynchronizedDenseObservers<Int>.Token] = []

    init(replays: Bool = false) {
      subject = SynchronizedDenseObservers(0, replaysCurrentValue: replays)
      tokens.append(
        subject.observe { [entered, release] value in
          guard value == 1 else { return }
          entered.signal()
          release.wait()
        })
    }

    func record(_ name: String) -> (Int) -> Void {
      { [log] value in log.entries.withLock { $0.append("\(name) \(value)") } }
    }

    /// Sets 1 on another thread and returns once its walk is held in the first callback.
    func holdEmitter() {
      Thread.detachNewThread { [self] in
        subject.value = 1
        written.signal()
      }
      entered.wait()
    }
  }

  /// What the observers saw, in order (a class: the observers capture it, not the fixture).
  final class Log: Sendable {
    let entries = Mutex<[String]>([])
    var all: [String] { entries.withLock { $0 } }
  }

  @Test("A cancel from another thread waits for the walk that may call the observer, and only it")
  func cancelWaitsForTheWalk() {
    let held = HeldEmitter()
    let watched = held.subject.observe(held.record("second"))
    held.holdEmitter()
    let cancelled = Atomic<Bool>(false)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      watched.cancel()
      cancelled.store(true, ordering: .sequentiallyConsistent)
      done.signal()
    }
    // The walk has not reached the second observer yet: its cancel must not return before it
    // has, or been told not to.
    let returnedEarly = done.wait(timeout: .now() + 0.2) == .success
    let flagged = cancelled.load(ordering: .sequentiallyConsistent)
    #expect(!returnedEarly && !flagged, "cancel returned while the walk could still call it")
    held.release.signal()
    if !returnedEarly { done.wait() }
    held.written.wait()
    // Booked before the walk reached it, called by it (its cancel had not returned), never after.
    #expect(held.log.all == ["second 1"])
    held.subject.value = 2
    #expect(held.log.all == ["second 1"])
    #expect(held.subject.observerCount == 1)
  }

  @Test("During a walk another thread subscribes and cancels without waiting")
  func arrivalsDoNotWait() {
    let held = HeldEmitter()
    held.holdEmitter()
    let token = held.subject.observe(held.record("late"))
    // Registered during the walk: no walk can call it, so its cancel returns at once.
    token.cancel()
    held.release.signal()
    held.written.wait()
    held.subject.value = 2
    #expect(held.log.all == [])
    #expect(held.subject.observerCount == 1)
  }

  @Test("A contended write and a contended replay are handed to the emitter, in order")
  func handOffsKeepOrder() {
    let held = HeldEmitter(replays: true)
    held.holdEmitter()
    // Both return at once: the emitter is held in a callback.
    let token = held.subject.observe(held.record("new"))
    held.subject.value = 2
    #expect(held.log.all == [])
    held.release.signal()
    held.written.wait()
    // The replay of the value current when it subscribed, then the write made after it; the
    // emitter's own value 1 was made before it subscribed.
    #expect(held.log.all == ["new 1", "new 2"])
    withExtendedLifetime(token) {}
  }

  @Test("Values written by four threads reach every observer once, one callback at a time")
  func concurrentWriters() {
    let subject = SynchronizedDenseObservers(0)
    let inFlight = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let seen = Mutex<[Int]>([])
    let token = subject.observe { value in
      if inFlight.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
        overlaps.add(1, ordering: .relaxed)
      }
      seen.withLock { $0.append(value) }
      inFlight.subtract(1, ordering: .sequentiallyConsistent)
    }
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for step in 1...500 { subject.value = thread * 1000 + step }
    }
    let values = seen.withLock { $0 }
    #expect(values.count == 2000 && Set(values).count == 2000)
    #expect(overlaps.load(ordering: .relaxed) == 0)
    // Each writer's own values arrive in the order it wrote them.
    for thread in 0..<4 {
      let own = values.filter { $0 / 1000 == thread }
      #expect(own == own.sorted())
    }
    withExtendedLifetime(token) {}
  }
}
