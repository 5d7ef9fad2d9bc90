import Dispatch
import ObservationConformance
import ObservationCore
import Synchronization

/// A pass's (backend, rule) cases, each with the check its outcome must meet, run in parallel.
///
/// The cases are read from the pass's threads and never written: the backends are descriptors
/// that hold no state, and each run makes subjects of its own.
struct PassCases: @unchecked Sendable {
  /// One run of a rule on a backend, and what its outcome must be.
  struct Case {
    /// The backend the rule runs on.
    var backend: any ObservationBackend
    /// The rule.
    var rule: ConformanceRule
    /// The disagreements of the outcome the run gives with what was expected; empty when it
    /// agrees.
    var check: (RuleOutcome) -> [String]
  }

  private let cases: [Case]

  /// Cases to run.
  init(_ cases: [Case]) { self.cases = cases }

  /// How many runs the cases make.
  var count: Int { cases.count }

  /// Runs every case with `SanitizerRuns.configuration`, as many at once as the machine has
  /// processors, and returns every disagreement, sorted.
  ///
  /// - Complexity: one run of each case's rule (and of any rule it depends on).
  func disagreements() -> [String] {
    let found = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: cases.count) { index in
      let run = cases[index]
      let outcome = ConformanceSuite.run(
        run.rule, on: run.backend, configuration: SanitizerRuns.configuration)
      let messages = run.check(outcome)
      if !messages.isEmpty { found.withLock { $0 += messages } }
    }
    return found.withLock { $0 }.sorted()
  }
}
