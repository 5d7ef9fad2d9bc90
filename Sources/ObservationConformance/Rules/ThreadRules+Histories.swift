import Foundation
import ObservationCore
import Synchronization

extension ThreadRules {
  /// THR-09: every observer's history, while threads write, subscribe and cancel at once, is
  /// one the backend's declaration allows.
  static let historyRules: [ConformanceRule] = [
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
    }
  ]
}
