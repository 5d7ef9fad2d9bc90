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
enum ThreadRules {
  /// Every THR rule, in order: what reaches observers when threads write, subscribe and
  /// cancel at once (``deliveryRules``); what a backend may hold while it calls out
  /// (``lockRules``); and whether what each observer saw is a history its declaration allows
  /// (``historyRules``).
  static let all: [ConformanceRule] = deliveryRules + lockRules + historyRules

  /// THR-01 to THR-04: no value lost, no overlapping callbacks, no crash, deadlock or race
  /// in storms of observe, cancel and set, and no callback after a cancel returned.
  static let deliveryRules: [ConformanceRule] = [
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
        let meeting = StepBarrier(parties: threads)
        let stranded = SharedCounters()
        let abandoned = Atomic<Bool>(false)
        let probe = subject.observe { value in
          guard value > 0 else { return }
          reached[value / 10_000].raise(to: value % 10_000)
          delivered.count.add(1, ordering: .sequentiallyConsistent)
        }
        context.forget(recorder)
        let shared = Unchecked(subject)
        let finished = runConcurrently(threads: threads, timeout: context.configuration.timeout) {
          thread in
          for step in 1...perThread {
            shared.value.value = thread * 10_000 + step
            if synchronous && reached[thread].count.load(ordering: .sequentiallyConsistent) < step {
              early.count.add(1, ordering: .relaxed)
            }
            if handsOff {
              meeting.arrive { abandoned.load(ordering: .relaxed) }
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
        + " (one callback already in flight may finish without immediateCancellation; with"
        + " cancelsOnLaterTurn, a value set before the cancel returned may still arrive, never"
        + " a later one).",
      traits: [.concurrent, .stochastic]
    ) { context in
      var verdict = Verdict()
      let laterTurn = context.has(.cancelsOnLaterTurn)
      let allowed = context.has(.immediateCancellation) || laterTurn ? 0 : 1
      var worst = 0
      for iteration in 1...context.stochasticIterations {
        let subject = Unchecked(context.subject(0))
        let counters = SharedCounters()
        // The writer's latest value whose set has started (its `count`), and, once the cancel
        // returned, the latest one started by then (its `maxInFlight`).
        let writer = SharedCounters()
        let tokenBox = Locked<AnyObservationToken?>(nil)
        tokenBox.withLock {
          $0 = subject.value.observe { value in
            // With cancelsOnLaterTurn only a value set after the cancel returned counts.
            if counters.flag.load(ordering: .sequentiallyConsistent)
              && (!laterTurn || value > writer.maxInFlight.load(ordering: .sequentiallyConsistent))
            {
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
              writer.count.store(value, ordering: .sequentiallyConsistent)
              subject.value.value = value
            }
          } else {
            for _ in 0..<2000 { _ = counters.inFlight.load(ordering: .relaxed) }
            let token = tokenBox.withLock { $0 }
            token?.cancel()
            writer.maxInFlight.store(
              writer.count.load(ordering: .sequentiallyConsistent),
              ordering: .sequentiallyConsistent)
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
        expected: "at most \(allowed) callback(s) start after cancel returned"
          + (laterTurn ? " with a value set after it (cancelsOnLaterTurn)" : ""),
        observed: "\(worst) started after cancel returned"
          + (laterTurn ? " with a value set after it" : ""))
      return verdict.result
    },
  ]
}
