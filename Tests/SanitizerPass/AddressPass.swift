import DenseBackend
import Foundation
import ObservationBackends
import ObservationConformance
import ObservationCore

/// The address sanitizer's pass: the rules over the code that steps outside safe Swift, each
/// rule that stands alone once, in parallel. LeakSanitizer reports what the runs leak when the
/// process exits.
///
/// - The backends written here, through their erased handles (`ErasedBackend`), which call
///   the backends' own code: no rule may fail, crash or time out. (The run without the
///   sanitizer checks the direct reports as well, and that erasure changes nothing.) Their
///   nested-path rules directly too, on each backend's own nested observation.
/// - The dense backends with replay, which the catalog does not list: no rule may fail.
/// - The backends over OpenCombine, the one library compiled here with the instrumentation:
///   each outcome as the committed matrix pins it. `Observation` and Foundation come prebuilt
///   with the toolchain: on their backends a rule drives only safe Swift of ours over code the
///   sanitizer does not see.
///
/// The suite-level rules only read the others' outcomes, apart from ERASE-01's run through the
/// erased handles, which the first group makes; the whole reports are checked without the
/// sanitizer. The stochastic rules run at `SanitizerRuns`' iterations.
enum AddressPass {
  /// The built-in backends written in this package.
  static var ownBackends: [any ObservationBackend] {
    BackendCatalog.all.filter { BackendCatalog.isOwnBackend($0.name) }
  }

  /// The dense backends with replay.
  static var replayingBackends: [any ObservationBackend] {
    [DenseStrategy(replays: true), SynchronizedDenseStrategy(replays: true)]
  }

  /// The library backends whose library is compiled in this build, from source, and so
  /// carries the sanitizer's instrumentation: OpenCombine's.
  static var instrumentedLibraryBackends: [any ObservationBackend] {
    BackendCatalog.all.filter { BackendCatalog.provenance(of: $0.name) == .library("OpenCombine") }
  }

  /// Runs the pass and returns every disagreement, and the line to print when there is none.
  ///
  /// - Complexity: one run of each rule that stands alone on each backend above.
  static func run(against matrix: PinnedMatrix) -> PassResult {
    let rules = ConformanceSuite.rules.filter { !$0.traits.contains(.suiteLevel) }
    var cases: [PassCases.Case] = []
    for backend in ownBackends {
      for rule in rules {
        cases.append(
          PassCases.Case(backend: erased(backend), rule: rule) { outcome in
            outcome.failureMessages(rule: rule.id.rawValue, backend: "\(backend.name) (erased)")
          })
      }
    }
    // Through erasure the nested-path rules run on the suite's generic fixtures; directly they
    // run on a backend's own nested observation (the key-path registry's access recording).
    for backend in ownBackends {
      for rule in rules where rule.traits.contains(.followsNestedPath) {
        cases.append(
          PassCases.Case(backend: backend, rule: rule) { outcome in
            outcome.failureMessages(rule: rule.id.rawValue, backend: backend.name)
          })
      }
    }
    for backend in replayingBackends {
      for rule in rules {
        cases.append(
          PassCases.Case(backend: backend, rule: rule) { outcome in
            outcome.failureMessages(rule: rule.id.rawValue, backend: "\(backend.name) (replaying)")
          })
      }
    }
    for backend in instrumentedLibraryBackends {
      for rule in rules {
        cases.append(
          PassCases.Case(backend: backend, rule: rule) { outcome in
            agreement(of: outcome, for: rule, on: backend, with: matrix)
          })
      }
    }
    let pass = PassCases(cases)
    let backends = ownBackends.count + replayingBackends.count + instrumentedLibraryBackends.count
    return PassResult(
      disagreements: pass.disagreements(),
      summary: "\(pass.count) rule runs on \(backends) backends under the address sanitizer:"
        + " \(ownBackends.count) of ours through their erased handles and"
        + " \(replayingBackends.count) replaying ones pass, \(instrumentedLibraryBackends.count)"
        + " over OpenCombine agree with \(PinnedMatrix.url.lastPathComponent)")
  }

  /// `backend` through its erased handles.
  private static func erased(_ backend: some ObservationBackend) -> any ObservationBackend {
    ErasedBackend(backend)
  }

  /// The disagreement of `outcome`, from an in-process run of `rule` on `backend`, with the
  /// matrix; empty when it agrees.
  ///
  /// The matrix is an isolated run's: a probe of concurrent use on a backend that does not
  /// declare `threadSafe` is made there in a child process of its own, and the matrix may hold
  /// either probe label; in process the engine does not make it, and the rule is n/a.
  private static func agreement(
    of outcome: RuleOutcome, for rule: ConformanceRule, on backend: any ObservationBackend,
    with matrix: PinnedMatrix
  ) -> [String] {
    let key = "\(rule.id) on \(backend.name)"
    guard var expected = matrix.outcome(of: rule, on: backend.name) else {
      return ["\(key): no outcome in \(PinnedMatrix.url.path)"]
    }
    if expected.isProbe && ConformanceSuite.isChildProcessProbe(rule, for: backend.capabilities) {
      expected = .notApplicable
    }
    guard SanitizerRuns.agrees(outcome.kind, for: rule, with: expected) else {
      return ["\(key): pinned \(expected.rawValue), got \(outcome.label): \(outcome.details)"]
    }
    return []
  }
}
