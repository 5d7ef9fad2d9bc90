import Foundation
import ObservationBackends
import ObservationConformance
import ObservationCore

/// The thread sanitizer's pass: every concurrency rule on every thread-safe built-in backend,
/// `PassCases.width` at a time.
///
/// Each THR rule runs as `SanitizerRuns` says: at its `stochasticIterations` (20) instead of
/// 459, and a rule pinned as failing may pass in fewer
/// iterations (its fault is rare); one pinned as passing must pass. The tests without a
/// sanitizer hold every rule at full strength to the same matrix.
enum ThreadPass {
  /// Runs the pass and returns what disagrees with `matrix`, how many runs were made and on
  /// how many backends.
  ///
  /// - Complexity: one run of each concurrency rule on each thread-safe backend.
  static func run(against matrix: PinnedMatrix) -> PassResult {
    let backends = BackendCatalog.all.filter { $0.capabilities.has(.threadSafe) }
    if backends.isEmpty {
      return PassResult(disagreements: ["no built-in backend declares threadSafe"], summary: "")
    }
    let rules = ConformanceSuite.rules.filter { $0.traits.contains(.concurrent) }
    let cases = PassCases(
      backends.flatMap { backend in
        rules.map { rule in
          PassCases.Case(backend: backend, rule: rule) { outcome in
            let key = "\(rule.id) on \(backend.name)"
            guard let expected = matrix.outcome(of: rule, on: backend.name) else {
              return ["\(key): no outcome in \(PinnedMatrix.url.path)"]
            }
            guard SanitizerRuns.agrees(outcome.kind, for: rule, with: expected) else {
              return [
                "\(key): pinned \(expected.rawValue), got \(outcome.label): \(outcome.details)"
              ]
            }
            return []
          }
        }
      })
    return PassResult(
      disagreements: cases.disagreements(),
      summary: "\(cases.count) concurrency rule runs on \(backends.count) thread-safe backends"
        + " agree with \(PinnedMatrix.url.lastPathComponent)")
  }
}
