import ArrayBackend
import Foundation
import LinkedListBackend
import ObservationBackends
import ObservationConformanceTesting
import ObservationCore
import ObservationFixtures
import ObservationReports
import SubjectBackend
import Testing

@testable import ObservationConformance

/// The whole suite over every built-in backend, directly and through its erased handles.
@Suite("Built-in backends")
struct BuiltinBackendConformanceTests {
  static let ownBackends = BackendCatalog.names.filter(BackendCatalog.isOwnBackend)
  static let libraryBackends = BackendCatalog.names.filter { !BackendCatalog.isOwnBackend($0) }

  @Test(
    "Backends written here pass every rule they declare", arguments: ownBackends,
    ConformanceSuite.rules)
  func ownBackend(_ name: String, _ rule: ConformanceRule) async {
    checkConformance(of: rule, in: await SharedReports.report(name, .direct))
  }

  @Test(
    "…and do so through their erased handles (ERASE-01)", arguments: ownBackends,
    ConformanceSuite.rules)
  func ownBackendErased(_ name: String, _ rule: ConformanceRule) async {
    checkConformance(of: rule, in: await SharedReports.report(name, .erased))
  }

  /// The findings on libraries we do not control, each rule the committed matrix records as
  /// failed run alone in this process, directly and through the erased handles: every other
  /// cell of those backends is held to the matrix by CI's fresh isolated run of the README's
  /// `observatory conformance` (release, every backend), which is also how the matrix is made.
  @Test(
    "Backends on libraries we do not control: every finding of the matrix is pinned, erased too",
    arguments: libraryBackends)
  func libraryFindings(_ name: String) async throws {
    let backend = try #require(BackendCatalog.backend(named: name))
    let findings = try PinnedOutcomes.findings(on: backend)
    let outcomes = await ReportThreads.run {
      PinnedOutcomes.runAlone(findings, on: BackendCatalog.backend(named: name)!)
    }
    for (rule, outcome) in zip(findings, outcomes) {
      #expect(
        outcome.direct.kind == .failed,
        "\(rule.id) on \(name): the matrix records a failure, run alone here: \(outcome.direct)")
      // Object-level rules (AGG), and nested paths where the backend has its own mechanism (a
      // Combine chain), are not about the property handle: through erasure they run on the
      // generic fixtures, which are ours and must not fail.
      let objectLevel =
        rule.traits.contains(.objectLevel)
        || (rule.traits.contains(.followsNestedPath) && backend is any NestedPathBackend)
      let expected =
        PinnedOutcomes.erasedDifferences[name]?[rule.id] ?? (objectLevel ? nil : .failed)
      if let expected {
        #expect(
          outcome.erased.kind == expected,
          "\(rule.id) on \(name), erased: expected \(expected.rawValue), got \(outcome.erased)")
      } else {
        #expect(
          !outcome.erased.isFailure,
          "\(rule.id) on \(name), erased (the generic fixtures): \(outcome.erased)")
      }
    }
  }

  /// META-01 is about the declaration, not about how hard the THR rules try: the report's
  /// configuration has ``FixtureReports/configuration``'s iterations.
  @Test("META-01 credits nested key paths to the suite's flatMapLatest, not to the backend")
  func nestedKeyPathsAttribution() async throws {
    let meta01 = try #require(ConformanceSuite.rule("META-01"))
    let outcome = await ReportThreads.run {
      ConformanceSuite.run(
        meta01, on: BackendCatalog.backend(named: "combine-passthrough")!,
        configuration: FixtureReports.configuration)
    }
    #expect(outcome.kind == .passed)
    #expect(
      outcome.details.contains(
        "nestedKeyPaths observed by KP-01,KP-02,KP-04,KP-06 (through the"
          + " suite's flatMapLatest over the backend's subjects, not the backend itself)"),
      "\(outcome.details)")
  }

  @Test("Every report lists every rule of the catalogue")
  func reportsListEveryRule() async {
    let catalogue: [RuleID] = [
      "INIT-01", "INIT-02", "INIT-03", "INIT-04", "INIT-05", "DEL-01", "DEL-02", "DEL-03", "DEL-04",
      "DEL-05", "ORD-01", "ORD-02", "ORD-03", "TIM-01", "TIM-02", "TIM-03", "TIM-04", "CAN-01",
      "CAN-02", "CAN-03", "CAN-04", "CAN-05", "CAN-06", "CAN-07", "CAN-08", "CAN-09", "SUB-01",
      "SUB-02",
      "SUB-03", "SUB-04", "REE-01", "REE-02", "REE-03", "REE-04", "MEM-01", "MEM-02", "MEM-03",
      "MEM-04", "MEM-05", "MEM-06", "MEM-07", "TERM-01", "TERM-02", "TERM-03", "TERM-04", "TERM-05",
      "EQ-01", "EQ-02", "EQ-03", "EQ-04", "AGG-01", "AGG-02", "AGG-03", "KP-01", "KP-02", "KP-03",
      "KP-04", "KP-05", "KP-06", "KP-07", "KP-08", "THR-01", "THR-02", "THR-03", "THR-04",
      "THR-05", "THR-06", "THR-07", "THR-08", "THR-09", "ERR-01", "ERR-02", "ERR-03", "DEL-06",
      "REE-05",
      "SCALE-01", "MEM-08", "REE-06",
      "DIFF-01", "DIFF-02", "ERASE-01",
      "ERASE-02", "META-01", "META-02",
      "META-03", "META-04",
    ]
    #expect(ConformanceSuite.rules.map(\.id) == catalogue)
    let report = await SharedReports.report(ArrayStrategy().name, .direct)
    #expect(report.results.map(\.rule.id) == catalogue)
    for result in report.results
    where result.outcome.kind == .notApplicable || result.outcome.kind == .untested {
      #expect(!result.outcome.details.isEmpty, "\(result.rule.id) is reported without a reason")
    }
  }
}

/// The findings on each backend built on a library we do not control (OpenCombine 0.14.0, the
/// toolchain's `Observation` module and Foundation's `NotificationCenter`): the rules it fails.
/// A failure there is a finding about that library, kept visible in `Results/conformance.md`;
/// a finding that disappears fails these tests, as does one that erasure changes.
///
/// The findings are those of the committed matrix, `Results/conformance.csv`, which
/// `observatory conformance` writes. CI holds every cell of it, findings or not, to a fresh
/// isolated run of that command: after a deliberate change, regenerating the matrix updates
/// these tests too. What the matrix cannot say is kept here: what changes through the erased
/// handles (``erasedDifferences``).
enum PinnedOutcomes {
  /// `Results/conformance.csv`, found from this file's place in the package.
  static let matrixURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // ObservationConformanceTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
    .appendingPathComponent("Results/conformance.csv")

  /// Every backend's outcome of every rule in the committed matrix, by backend, then rule.
  static let matrix: Result<[String: [String: RuleOutcome.Kind]], any Error> = Result {
    let text = try String(contentsOf: matrixURL, encoding: .utf8)
    let rows = try ConformanceMatrixCSV.rows(fromCSV: text)
    // The matrix's outcomes are the suite's kinds by the same words.
    return Dictionary(grouping: rows, by: \.backend).mapValues { rows in
      Dictionary(
        uniqueKeysWithValues: rows.compactMap { row in
          RuleOutcome.Kind(rawValue: row.outcome.rawValue).map { (row.rule, $0) }
        })
    }
  }

  /// The rules the committed matrix records as failed on `backend`, in the catalogue's order.
  ///
  /// - Complexity: O(*r*), *r* the number of rules.
  static func findings(on backend: any ObservationBackend) throws -> [ConformanceRule] {
    let outcomes = try #require(
      try matrix.get()[backend.name], "no row for \(backend.name) in \(matrixURL.path)")
    return ConformanceSuite.rules.filter { outcomes[$0.id.rawValue] == .failed }
  }

  /// Each of `rules` run alone on `backend` (with whatever it depends on, in a fresh context),
  /// directly and through its erased handles.
  static func runAlone<Backend: ObservationBackend>(
    _ rules: [ConformanceRule], on backend: Backend
  ) -> [(direct: RuleOutcome, erased: RuleOutcome)] {
    let configuration = SanitizerPass.suiteConfiguration
    return rules.map { rule in
      (
        ConformanceSuite.run(rule, on: backend, configuration: configuration),
        ConformanceSuite.run(rule, on: ErasedBackend(backend), configuration: configuration)
      )
    }
  }

  /// Where erasure changes what a finding's rule can see, the outcome through the erased
  /// handles (the matrix has no erased columns): `swift-observation-tracking`'s MEM-05 and
  /// MEM-07 count registrations with the subject's `observerCount`; the erased handle has no
  /// such hook, and checking by releases cannot see the registrations `Observation` keeps
  /// after cancel.
  static let erasedDifferences: [String: [RuleID: RuleOutcome.Kind]] = [
    "swift-observation-tracking": ["MEM-05": .passed, "MEM-07": .passed]
  ]
}
