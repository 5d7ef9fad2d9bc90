/// How this package's sanitizer passes run the rules (`Tests/SanitizerPass`, and the tests
/// under a sanitizer): they look for data races and bad accesses on the paths each
/// rule drives, while the runs without a sanitizer pin every outcome at full strength.
package enum SanitizerRuns {
  /// Iterations of a stochastic rule under a sanitizer: 20, instead of 459 at full strength.
  /// Each iteration drives the same concurrent paths (THR-01's: 4 threads of 250 contended
  /// writes), and a sanitizer reports a race or a bad access when it happens, not once in a
  /// hundred interleavings: the full-strength runs without a sanitizer are the ones that
  /// wait for a rare interleaving. At 50, THR-01 on four backends was most of the thread
  /// sanitizer's pass (about 44 s each of its 115).
  package static let stochasticIterations = 20

  /// The configuration a rule runs with under a sanitizer: ``stochasticIterations`` of each
  /// stochastic rule, 10 times fewer cycles and observers in the volume rules
  /// (``ConformanceConfiguration/volumeDivisor``), and 4 times fewer seeded scripts in the
  /// differential rules (``ConformanceConfiguration/scriptDivisor``), for the same reason.
  package static let configuration = ConformanceConfiguration(
    stochasticIterations: stochasticIterations, volumeDivisor: 10, scriptDivisor: 4)

  /// Whether `kind`, from a run with ``configuration``, agrees with `pinned`, the outcome at
  /// full strength: the same kind, except that a stochastic rule pinned as failing may pass in
  /// fewer iterations (its fault is rare). A rule pinned as passing must still pass.
  ///
  /// - Complexity: O(1).
  package static func agrees(
    _ kind: RuleOutcome.Kind, for rule: ConformanceRule, with pinned: RuleOutcome.Kind
  ) -> Bool {
    kind == pinned || (rule.traits.contains(.stochastic) && pinned == .failed && kind == .passed)
  }
}
