import ArrayBackend
import Foundation
import LinkedListBackend
import ObservationBackends
import ObservationConformanceTesting
import ObservationCore
import ObservationFixtures
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

  @Test(
    "Backends on libraries we do not control: every rule's outcome is pinned",
    arguments: libraryBackends,
    ConformanceSuite.rules)
  func libraryBackend(_ name: String, _ rule: ConformanceRule) async throws {
    let backend = try #require(BackendCatalog.backend(named: name))
    let expected = try PinnedOutcomes.expected(rule, on: backend)
    expectOutcome(of: rule, in: await SharedReports.report(name, .direct), is: expected)
  }

  @Test("…and erasure changes none of them", arguments: libraryBackends, ConformanceSuite.rules)
  func libraryBackendErased(_ name: String, _ rule: ConformanceRule) async throws {
    let backend = try #require(BackendCatalog.backend(named: name))
    var expected = try PinnedOutcomes.expected(rule, on: backend)
    if rule.id == .erase01 { expected = .notApplicable }
    if let differs = PinnedOutcomes.erasedDifferences[name]?[rule.id] { expected = differs }
    let report = await SharedReports.report(name, .erased)
    // Object-level rules (AGG), and nested paths where the backend has its own mechanism (a
    // Combine chain), are not about the property handle: through erasure they run on the
    // generic fixtures, which are ours and must not fail.
    let objectLevel =
      rule.traits.contains(.objectLevel)
      || (rule.traits.contains(.followsNestedPath) && backend is any NestedPathBackend)
    if objectLevel && PinnedOutcomes.erasedDifferences[name]?[rule.id] == nil {
      checkConformance(of: rule, in: report)
    } else {
      expectOutcome(of: rule, in: report, is: expected)
    }
  }

  @Test("META-01 credits nested key paths to the suite's flatMapLatest, not to the backend")
  func nestedKeyPathsAttribution() async throws {
    let report = await SharedReports.report("combine-passthrough", .direct)
    let outcome = try #require(report.outcome(of: "META-01"))
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
      "SCALE-01",
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

/// The exact outcome of every rule on each backend built on a library we do not control:
/// OpenCombine 0.14.0, the toolchain's `Observation` module and Foundation's `NotificationCenter`.
/// A failure there is a finding about that library, kept visible in `Results/conformance.md`; a
/// change in either direction (a new failure, or a finding that disappears) fails these tests.
///
/// The outcomes are those of the committed matrix, `Results/conformance.csv`, which
/// `observatory conformance` writes and CI checks against a fresh run: after a deliberate
/// change, regenerating the matrix updates these tests too. What the matrix cannot say is kept
/// here: how an in-process run differs from the matrix's isolated one
/// (``inProcess(_:of:on:)``), and what changes through the erased handles
/// (``erasedDifferences``).
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
    let rows = try ConformanceMatrix.rows(fromCSV: text)
    return Dictionary(grouping: rows, by: \.backend).mapValues { rows in
      Dictionary(uniqueKeysWithValues: rows.map { ($0.rule, $0.outcome) })
    }
  }

  /// The outcome `rule` must have on `backend` when it runs in this process (without the
  /// erased handles' differences).
  static func expected(
    _ rule: ConformanceRule, on backend: any ObservationBackend
  ) throws
    -> RuleOutcome.Kind
  {
    let recorded = try #require(
      try matrix.get()[backend.name]?[rule.id.rawValue],
      "no outcome for \(rule.id) on \(backend.name) in \(matrixURL.path)")
    return inProcess(recorded, of: rule, on: backend)
  }

  /// The outcome an in-process run has where the matrix, an isolated run, recorded `recorded`.
  ///
  /// They differ in one place: a probe of concurrent use on a backend that does not declare
  /// `threadSafe` (``ConformanceSuite/isChildProcessProbe(_:for:)``). The isolated run makes it
  /// in a child process of its own, and which way that probe goes can change from one run to
  /// the next, so the matrix holds either probe label there (as CI's check of the matrix
  /// accepts). In process the engine does not make the probe, since concurrent use of such a
  /// backend is undefined behaviour: the rule is `n/a`.
  static func inProcess(
    _ recorded: RuleOutcome.Kind, of rule: ConformanceRule, on backend: any ObservationBackend
  ) -> RuleOutcome.Kind {
    if recorded.isProbe && ConformanceSuite.isChildProcessProbe(rule, for: backend.capabilities) {
      return .notApplicable
    }
    return recorded
  }

  /// Where erasure changes what a rule can see, the outcome through the erased handles (the
  /// matrix has no erased columns):
  /// `swift-observation-tracking`'s MEM-05, MEM-07 and KP-08 count registrations with the subject's
  /// `observerCount`; the erased handle has no such hook, and checking by releases cannot see
  /// the registrations `Observation` keeps after cancel.
  static let erasedDifferences: [String: [RuleID: RuleOutcome.Kind]] = [
    "swift-observation-tracking": [
      "MEM-05": .passed, "MEM-07": .passed, "KP-08": .probeNotSeenViolated,
    ]
  ]
}
