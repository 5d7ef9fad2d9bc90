/// How this package's sanitizer passes run the rules (`Tests/SanitizerPass`, and the tests
/// under a sanitizer): they look for data races and bad accesses on the paths each
/// rule drives, while the runs without a sanitizer pin every outcome at full strength.
package enum SanitizerRuns {
  /// The configuration a rule runs with under a sanitizer: a stochastic rule makes
  /// ``ConformanceConfiguration/concurrencyProbeIterations`` iterations instead of 459. Each
  /// iteration drives the same concurrent paths, and a sanitizer reports a race or a bad access
  /// when it happens, not once in a hundred interleavings.
  ///
  /// The volume rules make 10 times fewer cycles and observers
  /// (``ConformanceConfiguration/volumeDivisor``), for the same reason.
  package static let configuration = ConformanceConfiguration(
    stochasticIterations: ConformanceConfiguration.concurrencyProbeIterations, volumeDivisor: 10)

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
