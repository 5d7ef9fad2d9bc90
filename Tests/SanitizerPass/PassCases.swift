import Foundation
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

  /// How many cases run at once: twice the processors, so that the rules that mostly wait (an
  /// asynchronous backend's turns, THR-05's and THR-06's pauses) overlap another case's work.
  /// With one case per processor, as `DispatchQueue.concurrentPerform` runs them, the address
  /// sanitizer's pass used 1.25 of this machine's 2 cores.
  static let width = 2 * ProcessInfo.processInfo.activeProcessorCount

  /// Runs every case with `SanitizerRuns.configuration`, ``width`` at once, each on a thread
  /// of its own with a main thread's 8 MiB of stack, and returns every disagreement, sorted.
  ///
  /// - Complexity: one run of each case's rule (and of any rule it depends on).
  func disagreements() -> [String] {
    let state = Shared()
    let group = DispatchGroup()
    for _ in 0..<min(Self.width, cases.count) {
      group.enter()
      let worker = Thread {
        while let index = state.claim(below: cases.count) {
          let run = cases[index]
          let outcome = ConformanceSuite.run(
            run.rule, on: run.backend, configuration: SanitizerRuns.configuration)
          state.record(run.check(outcome))
        }
        group.leave()
      }
      worker.stackSize = 1 << 23
      worker.start()
    }
    group.wait()
    return state.found.withLock { $0 }.sorted()
  }

  /// The next case to claim and the disagreements found, shared by the workers.
  private final class Shared: Sendable {
    let next = Atomic<Int>(0)
    let found = Mutex<[String]>([])

    /// The index of the next unclaimed case, or `nil` once all `count` are claimed.
    func claim(below count: Int) -> Int? {
      let index = next.add(1, ordering: .relaxed).oldValue
      return index < count ? index : nil
    }

    func record(_ messages: [String]) {
      if !messages.isEmpty { found.withLock { $0 += messages } }
    }
  }
}
