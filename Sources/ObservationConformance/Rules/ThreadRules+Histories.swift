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
        // Every few iterations, every thread makes every operation.
        guard iteration % churnEvery == 1 else { continue }
        let churn = churnViolations(context, model: model)
        for violation in churn.violations {
          verdict.expect(
            false, churnAction + " (iteration \(iteration))", expected: violation.expected,
            observed: violation.observed)
        }
        if !churn.finished || !verdict.findings.isEmpty { break }
      }
      return verdict.result
    }
  ]

  /// THR-09's second script runs in the first iteration and every this many after it: 29 runs
  /// of 459, 4 of a sanitizer's 50. One run caught the compaction that races a registration in
  /// 40 of 40 tries; each run costs about 40 of the first script's iterations.
  static let churnEvery = 16
  /// Threads of THR-09's second script, each making every operation.
  static let churnThreads = 4
  /// Rounds each thread of the second script makes: it observes twice, sets a value of its own
  /// and, once it holds more than ``churnKept`` observers, cancels one of them.
  static let churnRounds = 40
  /// Observers each thread of the second script keeps at most, after its first rounds: with
  /// the four threads about 100 at once, past the growth steps of an array (16, 32, 64) and
  /// with a cancel every round, so that a list that compacts does so while other threads
  /// register, cancel and deliver.
  static let churnKept = 24

  static let churnAction =
    "\(churnThreads) threads, each \(churnRounds) rounds of observe, observe, set a value of its"
    + " own and cancel one of its observers (up to \(churnThreads * churnKept) observers at"
    + " once), then cancel the rest"

  /// THR-09's second script: every thread observes, sets and cancels, so that registrations,
  /// cancels and deliveries race each other and a registry's growth and compaction, and each
  /// thread's calls are in program order. The history is checked against the same model.
  static func churnViolations(
    _ context: RuleContext, model: ConcurrentHistory.Model
  ) -> (finished: Bool, violations: [ConcurrentHistory.Violation]) {
    let subject = Unchecked(context.subject(0))
    let log = HistoryLog()
    let finished = runConcurrently(
      threads: churnThreads, timeout: context.configuration.timeout
    ) { thread in
      var live: [(id: Int, token: AnyObservationToken)] = []
      var nextID = 1_000 * (thread + 1)
      func observe() {
        let id = nextID
        nextID += 1
        log.record(.observeStarted(observer: id))
        let token = subject.value.observe { value in log.record(.delivered(value, to: id)) }
        log.record(.observeReturned(observer: id))
        live.append((id, token))
      }
      func cancel(at index: Int) {
        let (id, token) = live.remove(at: index)
        log.record(.cancelStarted(observer: id))
        token.cancel()
        log.record(.cancelReturned(observer: id))
      }
      for round in 1...churnRounds {
        observe()
        observe()
        let value = ConcurrentHistory.value(thread: thread, step: round)
        log.record(.setStarted(value))
        subject.value.value = value
        log.record(.setReturned(value))
        // Oldest, newest and in between, so that cancels leave holes anywhere in a list.
        if live.count > churnKept { cancel(at: (round * 7) % live.count) }
      }
      while !live.isEmpty { cancel(at: live.count - 1) }
    }
    guard finished else {
      Quarantine.keep(subject)
      subject.value.ledger.abandon()
      return (
        false,
        [
          .init(
            expected: "finishes within \(context.configuration.timeout) s",
            observed: "did not finish (deadlock?)")
        ]
      )
    }
    // Whatever an asynchronous backend still had scheduled is part of the history.
    context.drain()
    let final = subject.value.value
    let history = ConcurrentHistory(log.recorded, initialValue: 0)
    var violations = history.violations(of: model)
    if let wrong = history.finalValueViolation(final) { violations.append(wrong) }
    return (true, violations)
  }
}
