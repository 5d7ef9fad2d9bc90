import Foundation
import ObservationCore
import Synchronization

extension ThreadRules {
  /// THR-05 to THR-08: no callout or replay under an internal lock, serialized delivery that
  /// a nested write does not end early, and writes handed off to the thread delivering.
  static let lockRules: [ConformanceRule] = [
    ConformanceRule(
      "THR-05", .capability, binds: .when(.has(.threadSafe)),
      title: "no callout while an internal lock is held",
      intent: "A backend that calls observers under its own lock deadlocks as soon as an observer"
        + " takes a lock that a subscribing thread already holds.",
      traits: [.concurrent, .stochastic]
    ) { context in
      var verdict = Verdict()
      // Callbacks that took the foreign lock, over every iteration: none means the scenario
      // never happened, which is no pass.
      let locking = SharedCounters()
      for iteration in 1...context.stochasticIterations {
        let subject = Unchecked(context.subject(0))
        let foreign = NSLock()
        let box = Unchecked(foreign)
        // The subscribing thread is recognised by a mark in its thread dictionary (a thread
        // name would do on Darwin, but Linux refuses names over 15 bytes without a word).
        // Callbacks on any other thread take the lock it holds while subscribing; its own
        // replays must not, the lock not being recursive.
        let subscriberMark = "observatory.thr05.subscriber"
        // Both threads pause inside their critical windows (20 µs), so that a backend that
        // calls out under its lock meets the other thread there within a few steps, not
        // once in a thousand runs.
        let observer = subject.value.observe { _ in
          if Thread.current.threadDictionary[subscriberMark] == nil {
            usleep(20)
            box.value.lock()
            box.value.unlock()
            locking.count.add(1, ordering: .relaxed)
          }
        }
        let finished = runConcurrently(threads: 2, timeout: context.configuration.timeout) {
          thread in
          if thread == 0 {
            for step in 1...200 { subject.value.value = step }
          } else {
            Thread.current.threadDictionary[subscriberMark] = true
            for _ in 0..<200 {
              box.value.lock()
              usleep(20)
              let token = subject.value.observe { _ in }
              box.value.unlock()
              token.cancel()
            }
          }
        }
        verdict.expect(
          finished,
          "thread 1 holds a foreign lock while subscribing; thread 2's callbacks take it (iteration \(iteration))",
          expected: "no deadlock within \(context.configuration.timeout) s", observed: "deadlocked")
        if !finished {
          // The stuck threads hold the backend's lock: releasing the token or the subject
          // would wait for it forever and hang the whole run. Keep them.
          Quarantine.keep(subject, observer, box)
          subject.value.ledger.abandon()
          break
        }
        withExtendedLifetime(observer) {}
      }
      if verdict.findings.isEmpty && locking.count.load(ordering: .relaxed) == 0 {
        return .notApplicable(
          "no callback ran on a thread other than the subscribing one, so none took its lock")
      }
      return verdict.result
    },
    ConformanceRule(
      "THR-06", .capability, binds: .when(.all([.has(.threadSafe), .has(.replaysCurrentValue)])),
      title: "no replay while an internal lock is held",
      intent: "THR-05's mirror image: a backend that replays the current value to a new observer"
        + " while holding its own lock deadlocks as soon as the replay handler takes a lock that"
        + " a writing thread holds while it sets.",
      traits: [.concurrent, .stochastic]
    ) { context in
      guard context.has(.replaysCurrentValue) else {
        return .notApplicable(
          "needs replaysCurrentValue: a replay made under the backend's lock is what it looks for")
      }
      var verdict = Verdict()
      // Replays that took the foreign lock, over every iteration: none means the scenario
      // never happened, which is no pass.
      let locking = SharedCounters()
      let subscriberMark = "observatory.thr06.subscriber"
      for iteration in 1...context.stochasticIterations {
        let subject = Unchecked(context.subject(0))
        let foreign = Unchecked(NSLock())
        let kept = Locked<[AnyObservationToken]>([])
        let finished = runConcurrently(threads: 2, timeout: context.configuration.timeout) {
          thread in
          if thread == 0 {
            // The writer holds the foreign lock while it sets (taking the backend's lock).
            for step in 1...200 {
              foreign.value.lock()
              usleep(20)
              subject.value.value = step
              foreign.value.unlock()
            }
          } else {
            // The subscriber's replay handler, on its own thread, takes the foreign lock.
            // Callbacks on the writer's thread do not: it already holds it.
            Thread.current.threadDictionary[subscriberMark] = true
            for _ in 0..<200 {
              let token = subject.value.observe { _ in
                guard Thread.current.threadDictionary[subscriberMark] != nil else { return }
                usleep(20)
                foreign.value.lock()
                foreign.value.unlock()
                locking.count.add(1, ordering: .relaxed)
              }
              kept.withLock { $0.append(token) }
              token.cancel()
            }
          }
        }
        verdict.expect(
          finished,
          "thread 1 holds a foreign lock while setting; thread 2 subscribes and its replay takes"
            + " that lock (iteration \(iteration))",
          expected: "no deadlock within \(context.configuration.timeout) s", observed: "deadlocked")
        if !finished {
          Quarantine.keep(subject, foreign, kept)
          subject.value.ledger.abandon()
          break
        }
      }
      if verdict.findings.isEmpty && locking.count.load(ordering: .relaxed) == 0 {
        return .notApplicable(
          "no replay ran on the subscribing thread during observe, so none took the lock")
      }
      return verdict.result
    },
    ConformanceRule(
      "THR-07", .capability,
      binds: .when(
        .all([.has(.threadSafe), .has(.serializedDelivery)]),
        otherwise: .notApplicable(
          "needs threadSafe and serializedDelivery: concurrent delivery is allowed otherwise")),
      title: "callbacks to one observer stay serialized after nested writes",
      intent: "A serializing backend that marks itself idle when a nested write's delivery ends,"
        + " while the outer delivery is still running, lets another thread deliver at the same"
        + " time: THR-02 never writes from a callback, so it cannot see this.",
      traits: [.concurrent, .stochastic, .nestsWrites]
    ) { context in
      var verdict = Verdict()
      let overlaps = CrossThreadOverlap()
      var nestedWrites = 0
      for iteration in 1...context.stochasticIterations {
        let subject = Unchecked(context.subject(0))
        let nested = Atomic<Int>(0)
        let token = subject.value.observe { value in
          overlaps.enter()
          defer { overlaps.leave() }
          for _ in 0..<100 { _ = nested.load(ordering: .relaxed) }
          // Every tenth write is answered by a nested write (a negative value, never answered),
          // after which the callback goes on for a while (20 µs): the outer delivery is still
          // running, so no other thread may call the observer yet.
          if value > 0 && value % 10 == 0 {
            nested.add(1, ordering: .relaxed)
            subject.value.value = -value
            usleep(20)
          }
        }
        let finished = runConcurrently(threads: 4, timeout: context.configuration.timeout) {
          thread in
          for step in 1...100 { subject.value.value = thread * 1000 + step }
        }
        verdict.expect(
          finished,
          "4 threads × 100 sets, every tenth answered by a nested write (iteration"
            + " \(iteration))", expected: "finishes", observed: "did not finish")
        // An asynchronous backend delivers, and its callbacks answer, when its loop runs.
        if finished { context.drain() }
        withExtendedLifetime(token) {}
        nestedWrites += nested.load(ordering: .relaxed)
        if !finished {
          Quarantine.keep(subject, token)
          subject.value.ledger.abandon()
          break
        }
        if overlaps.worst > 0 { break }
      }
      if verdict.findings.isEmpty && nestedWrites == 0 {
        return .notApplicable("no callback saw a value to answer, so no nested write was made")
      }
      verdict.expect(
        overlaps.worst == 0,
        "4 threads set concurrently; one observer answers every tenth value with a nested write",
        expected: "its callbacks never run on two threads at once",
        observed: "\(overlaps.worst) time(s) a callback started while one ran on another thread")
      return verdict.result
    },
    ConformanceRule(
      "THR-08", .capability,
      binds: .when(.all([.has(.threadSafe), .has(.handsOffContendedWrites)])),
      title:
        "a contended set is handed off: it returns at once, and the delivering thread delivers it",
      intent: "An emitter loop promises writers that a set never waits on another thread's"
        + " callbacks, and readers that a queued value is delivered before the delivering"
        + " thread's own set returns. A backend that blocks the writer, or delivers on the"
        + " writer's thread, is some other design.",
      traits: [.concurrent]
    ) { context in
      guard context.has(.synchronousDelivery) else {
        return .notApplicable(
          "a hand-off qualifies synchronous delivery, and this backend delivers asynchronously")
      }
      var verdict = Verdict()
      let timeout = context.configuration.timeout
      // How long thread B's set may take while thread A is held in a callback: far longer
      // than queueing a value, far shorter than the rule's timeout.
      let handOffWait = min(2.0, timeout / 2)
      for round in 1...3 {
        let subject = Unchecked(context.subject(0))
        let received = Locked<[Int]>([])
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let token = subject.value.observe { value in
          guard value > 0 else { return }
          received.withLock { $0.append(value) }
          if value == 1 {
            entered.signal()
            _ = release.wait(timeout: .now() + timeout)
          }
        }
        let aReturned = DispatchSemaphore(value: 0)
        let bReturned = DispatchSemaphore(value: 0)
        let seenByA = Locked<[Int]>([])
        let seenByB = Locked<[Int]>([])
        Thread.detachNewThread {
          subject.value.value = 1
          seenByA.withLock { $0 = received.withLock { $0 } }
          aReturned.signal()
        }
        let action =
          "thread A sets 1 and is held in the observer's callback; thread B sets 2"
          + " (round \(round))"
        guard entered.wait(timeout: .now() + timeout) == .success else {
          verdict.expect(
            false, action, expected: "the callback for 1 starts on thread A",
            observed: "it did not start within \(timeout) s")
          Quarantine.keep(subject, token)
          subject.value.ledger.abandon()
          break
        }
        Thread.detachNewThread {
          subject.value.value = 2
          seenByB.withLock { $0 = received.withLock { $0 } }
          bReturned.signal()
        }
        let bInTime = bReturned.wait(timeout: .now() + handOffWait) == .success
        verdict.expect(
          bInTime, action,
          expected: "B's set returns while A's callback still runs (2 is queued for thread A)",
          observed: "B's set had not returned after \(handOffWait) s")
        if bInTime {
          let seen = seenByB.withLock { $0 }
          verdict.expect(
            seen == [1], action + ", then B's set returns",
            expected: "2 not delivered yet: thread A delivers it after its callback",
            observed: "the observer had received \(seen) (thread B delivered 2 itself)")
        }
        release.signal()
        let aInTime = aReturned.wait(timeout: .now() + timeout) == .success
        let bFinished = bInTime || bReturned.wait(timeout: .now() + timeout) == .success
        guard aInTime && bFinished else {
          verdict.expect(
            false, action + ", then A's callback ends",
            expected: "both sets return", observed: "a set had not returned after \(timeout) s")
          Quarantine.keep(subject, token)
          subject.value.ledger.abandon()
          break
        }
        let seen = seenByA.withLock { $0 }
        verdict.expect(
          seen == [1, 2], action + ", then A's callback ends and A's set returns",
          expected: "thread A delivered the queued 2 before its set returned: [1, 2]",
          observed: "the observer had received \(seen)")
        withExtendedLifetime(token) {}
        if !verdict.findings.isEmpty { break }
      }
      return verdict.result
    },
  ]
}
