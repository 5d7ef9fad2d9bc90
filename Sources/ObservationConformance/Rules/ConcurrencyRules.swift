import Foundation
import ObservationCore
import Synchronization

/// THR: concurrency. On backends that do not declare `threadSafe`, concurrent use is undefined
/// behaviour that may crash: those are probed only in an isolated run, one child process per
/// rule, where a crash or a hang is the probe's "not observed"; in process they are n/a.
///
/// Every rule runs ``ConformanceConfiguration/stochasticIterations`` independent iterations
/// (459 by default) and stops at the first that fails: an interleaving that happens in one
/// iteration out of a hundred is caught with probability 1 − 0.99^459 ≥ 0.99. A probe of a
/// backend that does not declare `threadSafe` runs at most
/// ``ConformanceConfiguration/concurrencyProbeIterations`` (50): it reports what it saw, and
/// whether an unsafe backend shows it in one run is a matter of chance.
enum ConcurrencyRules {
  static let all: [ConformanceRule] = [
    ConformanceRule(
      "THR-01", .capability, binds: .when(.has(.threadSafe)),
      title: "concurrent sets from many threads lose nothing",
      intent: "A write that races another must still reach every observer exactly once.",
      traits: [.concurrent, .stochastic]
    ) { context in
      var verdict = Verdict()
      let threads = 4
      let perThread = 250
      for iteration in 1...context.stochasticIterations {
        let subject = context.subject(0)
        let recorder = Recorder<Int>()
        let tokens = (0..<3).map { subject.observe(recorder.handler($0)) }
        // With synchronousDelivery, each writing thread checks that its value was delivered
        // before its `set` returned: the latest step each writer's values reached, and the
        // writes that returned before theirs had.
        let reached = (0..<threads).map { _ in SharedCounters() }
        let early = SharedCounters()
        let synchronous =
          context.has(.synchronousDelivery) && !context.has(.handsOffContendedWrites)
        // An emitter loop (handsOffContendedWrites) returns early by design: what it owes is
        // that once every set has returned, every value has been delivered. The writers meet
        // after each step, and the first checks that every value of the steps so far has
        // reached the last observer: a value queued in the moment the delivering thread gave
        // up (a lost wake-up) waits for the next write, and is seen missing there.
        let handsOff = context.has(.synchronousDelivery) && context.has(.handsOffContendedWrites)
        let delivered = SharedCounters()
        let arrived = SharedCounters()
        let stranded = SharedCounters()
        let abandoned = Atomic<Bool>(false)
        let probe = subject.observe { value in
          guard value > 0 else { return }
          reached[value / 10_000].raise(to: value % 10_000)
          delivered.count.add(1, ordering: .sequentiallyConsistent)
        }
        recorder.reset()
        let shared = Unchecked(subject)
        let finished = runConcurrently(threads: threads, timeout: context.configuration.timeout) {
          thread in
          for step in 1...perThread {
            shared.value.value = thread * 10_000 + step
            if synchronous && reached[thread].count.load(ordering: .sequentiallyConsistent) < step {
              early.count.add(1, ordering: .relaxed)
            }
            if handsOff {
              arrived.count.add(1, ordering: .sequentiallyConsistent)
              while arrived.count.load(ordering: .sequentiallyConsistent) < threads * step
                && !abandoned.load(ordering: .relaxed)
              {
                sched_yield()
              }
              if thread == 0
                && delivered.count.load(ordering: .sequentiallyConsistent) < threads * step
              {
                stranded.count.add(1, ordering: .relaxed)
              }
            }
          }
        }
        abandoned.store(true, ordering: .relaxed)
        verdict.expect(
          finished, "\(threads) threads × \(perThread) sets (iteration \(iteration))",
          expected: "finishes within \(context.configuration.timeout) s",
          observed: "did not finish (deadlock?)")
        if !finished { break }
        // A backend that coalesces writes never makes all the callbacks: it has settled once
        // every observer received the value the writers left.
        let last = subject.value
        context.settle {
          recorder.count >= 3 * threads * perThread
            || (!context.has(.deliversEveryValue) && recorder.lastValues(of: 0..<3, are: last))
        }
        if context.has(.deliversEveryValue) {
          let all = (0..<threads).flatMap { thread in (1...perThread).map { thread * 10_000 + $0 } }
            .sorted()
          for id in 0..<3 {
            let got = recorder.values(of: id).sorted()
            verdict.expect(
              got == all,
              "\(threads) threads × \(perThread) distinct sets (iteration \(iteration))",
              expected: "observer \(id) receives each of the \(all.count) values once",
              observed: "\(got.count) callbacks, \(Set(got).count) distinct values")
          }
        }
        if handsOff {
          let rounds = stranded.count.load(ordering: .relaxed)
          verdict.expect(
            rounds == 0,
            "\(threads) threads × \(perThread) sets, meeting after each step; the first checks"
              + " that every value so far was delivered (iteration \(iteration))",
            expected: "every value delivered once every set has returned"
              + " (handsOffContendedWrites: the delivering thread delivers what was queued)",
            observed: "\(rounds) step(s) ended with a value queued but not delivered")
        }
        if synchronous {
          let returnedEarly = early.count.load(ordering: .relaxed)
          verdict.expect(
            returnedEarly == 0,
            "\(threads) threads × \(perThread) sets; each writer checks after its set returns"
              + " (iteration \(iteration))",
            expected: "its value was delivered before set returned (synchronousDelivery)",
            observed: "\(returnedEarly) set(s) returned before their value was delivered")
        }
        withExtendedLifetime((tokens, probe)) {}
        if !verdict.findings.isEmpty { break }
      }
      return verdict.result
    },
    ConformanceRule(
      "THR-02", .capability, binds: .when(.all([.has(.threadSafe), .has(.serializedDelivery)])),
      title: "callbacks to one observer never overlap",
      intent: "Observers written as if single-threaded corrupt their own state when a backend"
        + " calls them from two threads at once.",
      traits: [.concurrent, .stochastic]
    ) { context in
      var verdict = Verdict()
      let counters = SharedCounters()
      for iteration in 1...context.stochasticIterations {
        let subject = context.subject(0)
        let token = subject.observe { _ in
          counters.enter()
          for _ in 0..<200 { counters.count.add(1, ordering: .relaxed) }
          counters.leave()
        }
        let shared = Unchecked(subject)
        let finished = runConcurrently(threads: 4, timeout: context.configuration.timeout) {
          thread in
          for step in 1...200 { shared.value.value = thread * 1000 + step }
        }
        verdict.expect(
          finished, "4 threads × 200 sets (iteration \(iteration))", expected: "finishes",
          observed: "did not finish")
        // An asynchronous backend delivers when its loop runs: the rule lets it, or its
        // callbacks would never have run, and a pass would have checked nothing.
        if finished { context.drain() }
        withExtendedLifetime(token) {}
        if !finished { break }
      }
      let callbacks = counters.count.load(ordering: .sequentiallyConsistent) / 200
      verdict.expect(
        callbacks > 0, "4 threads set concurrently, then the backend's deliveries run",
        expected: "callbacks ran, so that an overlap could be seen",
        observed: "no callback ran")
      let overlap = counters.maxInFlight.load(ordering: .sequentiallyConsistent)
      verdict.expect(
        overlap <= 1, "4 threads set concurrently; one observer counts callbacks in flight",
        expected: "never more than 1 in flight", observed: "\(overlap) callbacks in flight at once")
      return verdict.result
    },
    ConformanceRule(
      "THR-03", .capability, binds: .when(.has(.threadSafe)),
      title: "storms of concurrent observe / cancel / set neither crash, deadlock nor race",
      intent: "Real apps subscribe and cancel on one thread while another writes.",
      traits: [.concurrent, .stochastic]
    ) { context in
      var verdict = Verdict()
      for iteration in 1...context.stochasticIterations {
        let subject = Unchecked(context.subject(0))
        let finished = runConcurrently(threads: 4, timeout: context.configuration.timeout) {
          thread in
          var generator = SystemRandomNumberGenerator()
          var tokens: [AnyObservationToken] = []
          for step in 0..<300 {
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: tokens.append(subject.value.observe { _ in })
            case 1: if !tokens.isEmpty { tokens.removeLast().cancel() }
            default: subject.value.value = thread * 1000 + step
            }
          }
          tokens.removeAll()
        }
        verdict.expect(
          finished, "4 threads × 300 random observe / cancel / set (iteration \(iteration))",
          expected: "finishes within \(context.configuration.timeout) s",
          observed: "did not finish (deadlock?)")
        if !finished { break }
      }
      return verdict.result
    },
    ConformanceRule(
      "THR-04", .capability, binds: .when(.has(.threadSafe)),
      title: "after cancel returns on one thread, no new callback starts on another",
      intent: "Code that cancels and then tears down state must not be called back afterwards"
        + " (one callback already in flight may finish without immediateCancellation).",
      traits: [.concurrent, .stochastic]
    ) { context in
      var verdict = Verdict()
      let allowed = context.has(.immediateCancellation) ? 0 : 1
      var worst = 0
      for iteration in 1...context.stochasticIterations {
        let subject = Unchecked(context.subject(0))
        let counters = SharedCounters()
        let tokenBox = Locked<AnyObservationToken?>(nil)
        tokenBox.withLock {
          $0 = subject.value.observe { _ in
            if counters.flag.load(ordering: .sequentiallyConsistent) {
              counters.count.add(1, ordering: .sequentiallyConsistent)
            }
          }
        }
        let stop = SharedCounters()
        let finished = runConcurrently(threads: 2, timeout: context.configuration.timeout) {
          thread in
          if thread == 0 {
            var value = 0
            while !stop.flag.load(ordering: .sequentiallyConsistent) {
              value += 1
              subject.value.value = value
            }
          } else {
            for _ in 0..<2000 { _ = counters.inFlight.load(ordering: .relaxed) }
            let token = tokenBox.withLock { $0 }
            token?.cancel()
            counters.flag.store(true, ordering: .sequentiallyConsistent)
            for _ in 0..<20_000 { _ = counters.inFlight.load(ordering: .relaxed) }
            stop.flag.store(true, ordering: .sequentiallyConsistent)
          }
        }
        verdict.expect(
          finished, "one thread sets, another cancels (iteration \(iteration))",
          expected: "finishes", observed: "did not finish")
        if !finished { break }
        worst = max(worst, counters.count.load(ordering: .sequentiallyConsistent))
        tokenBox.withLock { $0 = nil }
      }
      verdict.expect(
        worst <= allowed, "one thread sets continuously; another cancels, then raises a flag",
        expected: "at most \(allowed) callback(s) start after cancel returned",
        observed: "\(worst) started after cancel returned")
      return verdict.result
    },
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
    ConformanceRule(
      .thr09, .capability, binds: .when(.has(.threadSafe)),
      title: "concurrent histories are ones the declaration allows",
      intent: "THR-01 counts values and THR-04 counts late callbacks, each with one kind of"
        + " thread at a time; neither asks whether what each observer saw while threads wrote,"
        + " subscribed and cancelled at once could have come from some order of the writes. A"
        + " backend can deliver every value and still swap one thread's writes, repeat one, or"
        + " call an observer whose cancel returned while another thread was delivering.",
      traits: [.concurrent, .stochastic]
    ) { context in
      var verdict = Verdict()
      let writers = 3
      let perWriter = 60
      let steady = 2
      let churned = 24
      let model = ConcurrentHistory.Model(context.capabilities)
      let action =
        "\(writers) threads × \(perWriter) distinct sets; \(steady) observers throughout, and a"
        + " fourth thread observing and cancelling up to \(churned) more meanwhile"
      for iteration in 1...context.stochasticIterations {
        let subject = Unchecked(context.subject(0))
        let log = HistoryLog()
        // The first observer yields its core in every callback: the writers then run while
        // a delivery is under way, so that contended sets, hand-offs and cancels racing a
        // delivery happen in most iterations, not only when the scheduler happens to allow.
        let tokens = (0..<steady).map { id in
          log.record(.observeStarted(observer: id))
          defer { log.record(.observeReturned(observer: id)) }
          return subject.value.observe { value in
            log.record(.delivered(value, to: id))
            if id == 0 { sched_yield() }
          }
        }
        let writing = Atomic<Int>(writers)
        let finished = runConcurrently(
          threads: writers + 1, timeout: context.configuration.timeout
        ) { thread in
          if thread < writers {
            for step in 1...perWriter {
              let value = ConcurrentHistory.value(thread: thread, step: step)
              log.record(.setStarted(value))
              subject.value.value = value
              log.record(.setReturned(value))
            }
            writing.subtract(1, ordering: .sequentiallyConsistent)
            return
          }
          // Each churned observer lives until it has had a callback or two (or the writers
          // are done), so that its cancel races deliveries on the writers' threads.
          for id in steady..<(steady + churned) {
            guard writing.load(ordering: .sequentiallyConsistent) > 0 else { break }
            let received = Atomic<Int>(0)
            log.record(.observeStarted(observer: id))
            let token = subject.value.observe { value in
              log.record(.delivered(value, to: id))
              received.add(1, ordering: .relaxed)
            }
            log.record(.observeReturned(observer: id))
            var spins = 0
            while spins < 50 && received.load(ordering: .relaxed) < 1 + id % 2 {
              sched_yield()
              spins += 1
            }
            log.record(.cancelStarted(observer: id))
            token.cancel()
            log.record(.cancelReturned(observer: id))
          }
        }
        verdict.expect(
          finished, action + " (iteration \(iteration))",
          expected: "finishes within \(context.configuration.timeout) s",
          observed: "did not finish (deadlock?)")
        if !finished {
          Quarantine.keep(subject, tokens)
          subject.value.ledger.abandon()
          break
        }
        // An asynchronous backend has its turns: until the steady observers have every value
        // (or, coalescing, the last one set).
        let final = subject.value.value
        context.settle {
          (0..<steady).allSatisfy { id in
            let values = log.deliveries(to: id)
            return model.everyValue ? values.count >= writers * perWriter : values.last == final
          }
        }
        let history = ConcurrentHistory(log.recorded, initialValue: 0)
        var violations = history.violations(of: model)
        if let wrong = history.finalValueViolation(final) { violations.append(wrong) }
        for violation in violations {
          verdict.expect(
            false, action + " (iteration \(iteration))", expected: violation.expected,
            observed: violation.observed)
        }
        withExtendedLifetime(tokens) {}
        if !verdict.findings.isEmpty { break }
      }
      return verdict.result
    },
  ]
}
