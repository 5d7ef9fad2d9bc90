import ObservationConformance
import TestTraits

/// How these tests run the rules when a sanitizer's runtime is in the process
/// (`swift test --sanitize=...`): what such a run is for is memory errors and data races on
/// the code paths each rule drives, while the exact outcomes at the rules' full strength are
/// pinned by the same tests without a sanitizer. (CI's sanitizer passes are the executable in
/// `Tests/SanitizerPass`, which runs the rules with the same `SanitizerRuns`.)
enum SanitizerPass {
  /// The configuration a rule runs with under a sanitizer: a THR rule makes
  /// `SanitizerRuns.stochasticIterations` (20) iterations instead of 459. Each
  /// iteration drives the same concurrent paths, and a sanitizer reports a race or a bad access
  /// when it happens, not once in a hundred interleavings: the 459 iterations are for catching
  /// a rare wrong outcome, which the run without a sanitizer does. (Under the address
  /// sanitizer a THR rule at 459 iterations takes minutes per backend.)
  static func configuration(for rule: ConformanceRule) -> ConformanceConfiguration {
    rule.traits.contains(.stochastic) ? SanitizerRuns.configuration : .standard
  }

  /// The configuration a whole suite runs with in this process: ``configuration(for:)``'s
  /// iterations for the stochastic rules under a sanitizer, the standard one otherwise (where
  /// the same tests run them at full strength).
  static var suiteConfiguration: ConformanceConfiguration {
    Sanitizer.address || Sanitizer.thread ? SanitizerRuns.configuration : .standard
  }
}
