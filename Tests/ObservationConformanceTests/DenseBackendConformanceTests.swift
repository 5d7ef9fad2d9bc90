import DenseBackend
import ObservationConformance
import ObservationCore
import TestTraits
import Testing

/// Observatory's own backends, with and without replay: the rules each variant must pass by
/// name, so that a declaration quietly narrowed (which would turn those rules into n/a) fails
/// here. The catalogue's variants are read from the shared reports the built-in tests check;
/// the replaying ones, not in the catalogue, run through the public entry point, exactly as a
/// third party runs the suite.
@Suite("Observatory's own backends pass every rule they declare")
struct DenseBackendConformanceTests {
  static let common: [RuleID] = [
    "DIFF-01", "DEL-06", "ORD-01", "ORD-03", "REE-02", "REE-05", "CAN-02", "CAN-06", "CAN-09",
    "MEM-04", "MEM-05", "MEM-07", "SUB-04", "SCALE-01",
  ]
  static let threads: [RuleID] = [
    "THR-01", "THR-02", "THR-03", "THR-04", "THR-05", "THR-07", "THR-08", "THR-09",
  ]

  @Test("dense and dense-synchronized, as the catalogue has them")
  func catalogueVariants() async throws {
    for (name, extra) in [("dense", [RuleID]()), ("dense-synchronized", Self.threads)] {
      let report = await SharedReports.report(name, .direct)
      try expectPassed(
        Self.common + extra + ["INIT-02", "SUB-01"], in: Self.outcomes(in: report), name)
    }
  }

  @Test("with replay", arguments: [false, true])
  func replayingVariants(synchronized: Bool) async throws {
    let variant: any ObservationBackend =
      synchronized ? SynchronizedDenseStrategy(replays: true) : DenseStrategy(replays: true)
    nonisolated(unsafe) let backend = variant
    let outcomes = await ReportThreads.run { Self.outcomes(of: backend) }
    let replay: [RuleID] = ["INIT-01", "INIT-05", "SUB-02", "SUB-03"]
    try expectPassed(
      Self.common + replay + (synchronized ? Self.threads + ["THR-06"] : []), in: outcomes,
      variant.name)
  }

  @Test("dense's handles, through a token that only removes its handle (dense-handles)")
  func handles() async throws {
    let view = DenseHandleView()
    #expect(!view.capabilities.has(.cancelsOnTokenDeinit))
    let outcomes = await ReportThreads.run { Self.outcomes(of: view) }
    let release: [RuleID] = ["CAN-02", "CAN-08"]
    try expectPassed(
      Self.common.filter { !release.contains($0) } + ["INIT-02", "SUB-01", "CAN-01"], in: outcomes,
      view.name)
    // A handle's release ends nothing: the rules about a token's release are not credited.
    for id in release {
      let outcome = try #require(outcomes[id])
      #expect(
        ![.passed, .probeObserved].contains(outcome.kind), "\(view.name) \(id): \(outcome.label)")
    }
  }

  /// Every rule's outcome on `backend`, from the whole suite's report, as a third party runs
  /// it, at full strength: these variants are not in the catalogue, so no matrix holds their
  /// THR rules at 459 iterations (``SharedReports/fullStrengthReport(of:)``). Under a
  /// sanitizer, each rule that stands alone, once, at the sanitizer's iterations
  /// (``SanitizerPass/configuration(for:)``): that pass looks for bad accesses on the paths the
  /// rules drive, and the suite-level rules would drive the same paths again (ERASE-01 reruns
  /// every rule through the erased handles), doubling the run; the run without a sanitizer
  /// checks them. (CI's address sanitizer pass runs the same variants from
  /// `Tests/SanitizerPass`.)
  ///
  /// - Complexity: the whole suite on `backend` (seconds).
  static func outcomes(of backend: some ObservationBackend) -> [RuleID: RuleOutcome] {
    guard Sanitizer.address || Sanitizer.thread else {
      return outcomes(in: SharedReports.fullStrengthReport(of: backend))
    }
    let rules = ConformanceSuite.rules.filter { !$0.traits.contains(.suiteLevel) }
    return Dictionary(
      uniqueKeysWithValues: rules.map { rule in
        (
          rule.id,
          ConformanceSuite.run(
            rule, on: backend, configuration: SanitizerPass.configuration(for: rule))
        )
      })
  }

  /// Every rule's outcome in `report`, by rule.
  ///
  /// - Complexity: O(*n*) for *n* rules.
  static func outcomes(in report: ConformanceReport) -> [RuleID: RuleOutcome] {
    Dictionary(uniqueKeysWithValues: report.results.map { ($0.rule.id, $0.outcome) })
  }

  private func expectPassed(
    _ ids: [RuleID], in outcomes: [RuleID: RuleOutcome], _ name: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let failures = outcomes.filter { $0.value.isFailure }.keys.sorted()
    #expect(failures == [], "\(name)", sourceLocation: sourceLocation)
    for id in ids {
      let outcome = try #require(outcomes[id], sourceLocation: sourceLocation)
      #expect(
        outcome.kind == .passed, "\(name) \(id): \(outcome.details)",
        sourceLocation: sourceLocation)
    }
  }
}
