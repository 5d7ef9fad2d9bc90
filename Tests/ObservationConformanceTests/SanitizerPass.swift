import ObservationBackends
import ObservationConformance
import TestTraits
import Testing

/// How a sanitizer's pass runs the rules: what it is for is memory errors and data races on
/// the code paths each rule drives, while the exact outcomes at the rules' full strength are
/// pinned by the same tests without a sanitizer.
enum SanitizerPass {
  /// The configuration a rule runs with under a sanitizer: a THR rule makes
  /// ``ConformanceConfiguration/concurrencyProbeIterations`` iterations instead of 459. Each
  /// iteration drives the same concurrent paths, and a sanitizer reports a race or a bad access
  /// when it happens, not once in a hundred interleavings: the 459 iterations are for catching
  /// a rare wrong outcome, which the run without a sanitizer does. (Under the address
  /// sanitizer a THR rule at 459 iterations takes minutes per backend.)
  static func configuration(for rule: ConformanceRule) -> ConformanceConfiguration {
    rule.traits.contains(.stochastic) ? SanitizerRuns.configuration : .standard
  }

  /// Whether `outcome`, from a run with ``configuration(for:)``, agrees with `pinned`, the
  /// outcome at full strength: the same kind, except that a THR rule pinned as failing may pass
  /// in fewer iterations (its fault is rare). A THR rule pinned as passing must still pass: a
  /// failure seen in fewer iterations is a failure.
  static func agrees(
    _ outcome: RuleOutcome, for rule: ConformanceRule, with pinned: RuleOutcome.Kind
  ) -> Bool {
    SanitizerRuns.agrees(outcome.kind, for: rule, with: pinned)
  }

  /// The library backends whose library is compiled in this build, from source, and so carries
  /// the sanitizer's instrumentation: OpenCombine's. `Observation` and Foundation come prebuilt
  /// with the toolchain, uninstrumented.
  static let instrumentedLibraryBackends = BackendCatalog.names.filter {
    BackendCatalog.provenance(of: $0) == .library("OpenCombine")
  }

  /// The configuration a whole suite runs with in this process: ``configuration(for:)``'s
  /// iterations for the stochastic rules under a sanitizer, the standard one otherwise (where
  /// the same tests run them at full strength).
  static var suiteConfiguration: ConformanceConfiguration {
    Sanitizer.address || Sanitizer.thread ? SanitizerRuns.configuration : .standard
  }

  /// Runs `rule` on the built-in backend called `name` with ``configuration(for:)`` and records
  /// an issue at the caller unless the outcome ``agrees(_:for:with:)`` with the pinned one.
  ///
  /// - Complexity: one run of `rule` (and of any rule it depends on).
  static func check(
    _ rule: ConformanceRule, onBackendNamed name: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let backend = try #require(
      BackendCatalog.backend(named: name), sourceLocation: sourceLocation)
    let pinned = try PinnedOutcomes.expected(rule, on: backend)
    let outcome = ConformanceSuite.run(rule, on: backend, configuration: configuration(for: rule))
    #expect(
      agrees(outcome, for: rule, with: pinned),
      "\(rule.id) on \(name): pinned \(pinned.rawValue), got \(outcome.label): \(outcome.details)",
      sourceLocation: sourceLocation)
  }
}
