import Foundation
import ObservationCore
import RunLoopExecution
import Synchronization
import Testing

@testable import ActorObservableBackend

/// `actor-observable`: what the adapter does, seen without the conformance suite.
@Suite("Actor-isolated observers")
struct ActorObservableValueTests {
  let backend = ActorObservableStrategy()

  @Test("A write arrives when the thread's run loop runs the actor, not inside the setter")
  func deliveryOnTheRunLoop() {
    let subject = ActorObservableValue(0)
    var received: [Int] = []
    let token = subject.observe { received.append($0) }
    subject.value = 1
    subject.value = 2
    #expect(received.isEmpty)
    #expect(backend.awaitDelivery(until: { received.count == 2 }, timeout: .seconds(10)))
    #expect(received == [1, 2])
    withExtendedLifetime(token) {}
  }

  @Test("The getter reads the last value written, before the actor has delivered it")
  func getterReadsTheLastWrite() {
    let subject = ActorObservableValue(0)
    var received: [Int] = []
    let token = subject.observe { received.append($0) }
    subject.value = 5
    #expect(subject.value == 5)
    #expect(received.isEmpty)
    #expect(backend.awaitScheduledDeliveries(timeout: .seconds(10)))
    #expect(received == [5])
    withExtendedLifetime(token) {}
  }

  @Test("A write made inside a handler is delivered after the one being delivered, to everyone")
  func nestedWriteIsQueued() {
    let subject = ActorObservableValue(0)
    var first: [Int] = []
    var second: [Int] = []
    let tokens = [
      subject.observe { value in
        first.append(value)
        if value == 1 { subject.value = 2 }
      },
      subject.observe { second.append($0) },
    ]
    subject.value = 1
    #expect(backend.awaitScheduledDeliveries(timeout: .seconds(10)))
    #expect(first == [1, 2])
    #expect(second == [1, 2])
    #expect(subject.value == 2)
    withExtendedLifetime(tokens) {}
  }

  @Test("Cancel removes the handler once the actor runs: a later write never arrives")
  func cancelEndsTheObserver() {
    let subject = ActorObservableValue(0)
    var received: [Int] = []
    weak var released: AnyObject?
    let token: ActorObservableValueToken
    do {
      let witness = Witness()
      released = witness
      token = subject.observe { value in withExtendedLifetime(witness) { received.append(value) } }
    }
    subject.value = 1
    #expect(backend.awaitDelivery(until: { received == [1] }, timeout: .seconds(10)))
    token.cancel()
    token.cancel()
    subject.value = 2
    #expect(backend.awaitScheduledDeliveries(timeout: .seconds(10)))
    #expect(received == [1])
    #expect(released == nil)
  }

  @Test("Releasing the token ends the observer as cancel does")
  func releaseEndsTheObserver() {
    let subject = ActorObservableValue(0)
    var received: [Int] = []
    var token: ActorObservableValueToken? = subject.observe { received.append($0) }
    subject.value = 1
    #expect(backend.awaitDelivery(until: { received == [1] }, timeout: .seconds(10)))
    withExtendedLifetime(token) {}
    token = nil
    subject.value = 2
    #expect(backend.awaitScheduledDeliveries(timeout: .seconds(10)))
    #expect(received == [1])
  }

  @Test("When the value is gone, its handlers are released, though a token is still held")
  func subjectReleaseReleasesHandlers() {
    var subject: ActorObservableValue<Int>? = ActorObservableValue(0)
    weak var released: AnyObject?
    let token: ActorObservableValueToken?
    do {
      let witness = Witness()
      released = witness
      token = subject?.observe { _ in withExtendedLifetime(witness) {} }
    }
    #expect(backend.awaitScheduledDeliveries(timeout: .seconds(10)))
    subject = nil
    #expect(backend.awaitScheduledDeliveries(timeout: .seconds(10)))
    #expect(released == nil)
    token?.cancel()
  }

  @Test("Writes from other threads are delivered on the thread that made the value, one at a time")
  func otherThreadsWritesRunOnTheOwningThread() {
    let subject = ActorObservableValue(0)
    let owner = Thread.current
    var received: [Int] = []
    var elsewhere = 0
    let token = subject.observe { value in
      if Thread.current != owner { elsewhere += 1 }
      received.append(value)
    }
    let shared = UnsafeTransfer(subject)
    let done = Atomic<Int>(0)
    let threads = (1...4).map { thread in
      let started = Thread {
        for step in 1...50 { shared.value.value = thread * 1000 + step }
        done.add(1, ordering: .sequentiallyConsistent)
      }
      started.start()
      return started
    }
    // The run loop itself, not the backend's wait, which ends as soon as the loop is idle: the
    // writers may not have started yet.
    #expect(
      RunLoopExecutor.spin(
        until: { done.load(ordering: .sequentiallyConsistent) == 4 && received.count == 200 },
        timeout: .seconds(10)))
    #expect(elsewhere == 0)
    #expect(Set(received).count == 200)
    for thread in 1...4 {
      let mine = received.filter { $0 / 1000 == thread }
      #expect(mine == mine.sorted(), "thread \(thread)'s writes arrive in the order it made them")
    }
    withExtendedLifetime((token, threads)) {}
  }

  @Test("The actor runs on its owner's loop even when called from a task with no preference")
  func actorKeepsItsExecutor() {
    let owner = Thread.current
    let subject = IsolatedSubject(UncheckedSendable(0), executor: RunLoopExecutor.current)
    let ranOnOwner = Atomic<Int>(0)
    let ranElsewhere = Atomic<Int>(0)
    let handler = UncheckedSendable { (_: Int) -> Void in
      if Thread.current == owner {
        ranOnOwner.add(1, ordering: .relaxed)
      } else {
        ranElsewhere.add(1, ordering: .relaxed)
      }
    }
    // The calls start on a thread of their own, in tasks with no executor preference, each
    // hopping straight to the actor's executor: a detached task would first wait for a thread
    // of the global pool, which the tests running beside this one may all be holding.
    let caller = Thread {
      Task.immediate { await subject.register(UUID(), handler) }
      Task.immediate { await subject.set(UncheckedSendable(1)) }
    }
    caller.start()
    #expect(
      RunLoopExecutor.spin(
        until: { ranOnOwner.load(ordering: .relaxed) + ranElsewhere.load(ordering: .relaxed) == 1 },
        timeout: .seconds(10)))
    #expect(ranOnOwner.load(ordering: .relaxed) == 1)
  }

  /// Hands the value to writer threads: it is declared thread-safe, which the compiler cannot
  /// see.
  private struct UnsafeTransfer<Wrapped>: @unchecked Sendable {
    let value: Wrapped
    init(_ value: Wrapped) { self.value = value }
  }

  private final class Witness {}
}
