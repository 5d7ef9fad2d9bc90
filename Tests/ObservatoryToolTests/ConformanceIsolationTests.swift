import Foundation
import ObservationBackends
import ObservationCore
import Testing

@testable import ObservationConformance

/// Isolated conformance runs: a backend that traps or deadlocks in one rule still gets a full
/// report, with that rule `crashed` or `timed out`; a backend that does neither gets exactly the
/// report it gets in process.
///
/// The broken backends live in the `conformance-fixtures` executable (see
/// `Tests/Fixtures/ConformanceFixtures`), a child-side harness like a third party's own: they
/// wrap the linked list and trap or deadlock only when a callback chain nests more than 1,000
/// sends, which only REE-02 does (directly, and again through the erased handles for
/// ERASE-01).
@Suite("Conformance rules run isolated in child processes")
struct ConformanceIsolationTests {
  /// The executable called `name` that `swift test` built beside the test bundle.
  static func built(_ name: String) throws -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let fallback = package.appendingPathComponent(".build/debug/\(name)")
    return try #require(
      FileManager.default.isExecutableFile(atPath: fallback.path) ? fallback : nil,
      "\(name) was not built beside the tests")
  }

  /// The backend the fixtures wrap, and its report in process: what every rule but REE-02
  /// must also say for the fixtures.
  static let linkedList = BackendCatalog.backend(named: "linked-list")!
  static let linkedListInProcess = ConformanceSuite.run(linkedList)

  /// The rule timeout of the fixture runs: the deadlock costs it twice (REE-02 directly and
  /// through the erased handles).
  static let ruleTimeout = 10.0

  /// Runs the fixture backend called `name` isolated, remembering the children it started.
  static func runFixture(_ name: String) throws -> (ConformanceReport, children: [Int32]) {
    var runner = try IsolatedConformanceRunner(
      executable: built("conformance-fixtures"), arguments: [name], ruleTimeout: ruleTimeout)
    let children = Children()
    runner.childStarted = { pid in children.pids.withLock { $0.append(pid) } }
    runner.childEnded = { pid in children.ended.withLock { $0.append(pid) } }
    let report = try runner.run(backendName: name, capabilities: linkedList.capabilities)
    #expect(children.pids.withLock { $0 } == children.ended.withLock { $0 })
    return (report, children.pids.withLock { $0 })
  }

  final class Children: Sendable {
    let pids = Locked([Int32]())
    let ended = Locked([Int32]())
  }

  /// Checks that every rule of `report` but `broken` has the outcome it has on the linked list
  /// in process: the same kind, and the same prose except ERASE-01's count of compared rules.
  static func expectNormalOutcomes(
    _ report: ConformanceReport, except broken: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(report.results.count == linkedListInProcess.results.count)
    for reference in linkedListInProcess.results where reference.rule.id != broken {
      let outcome = report.outcome(of: reference.rule.id)
      if reference.rule.id == "ERASE-01" {
        #expect(
          outcome?.kind == reference.outcome.kind, "ERASE-01: \(outcome?.details ?? "missing")",
          sourceLocation: sourceLocation)
      } else {
        #expect(
          outcome == reference.outcome, "\(reference.rule.id)", sourceLocation: sourceLocation)
      }
    }
  }

  @Test("A rule that traps is crashed (signal N); every other rule has its normal outcome")
  func trappingRule() throws {
    let (report, children) = try Self.runFixture("runaway-trap")
    let outcome = try #require(report.outcome(of: "REE-02"))
    guard case .crashed(let signal, let details, let binding) = outcome else {
      Issue.record("REE-02 should have crashed: \(outcome.label) \(outcome.details)")
      return
    }
    #expect(signal == SIGILL || signal == SIGTRAP, "\(outcome.label)")
    #expect(outcome.label == "crashed (signal \(signal ?? 0))")
    #expect(details.contains("runaway feedback"), "\(details)")
    #expect(binding && outcome.isFailure && outcome.kind == .crashed)
    #expect(report.failures.map(\.rule.id) == ["REE-02"])
    Self.expectNormalOutcomes(report, except: "REE-02")
    // One child for the rules before REE-02, one up to ERASE-01's re-run of REE-02, one after.
    #expect(children.count == 3)
    #expect(children.allSatisfy { kill($0, 0) != 0 }, "a child outlived its run")
  }

  // A watchdog that does not fire would hang the run: the limit makes that a failure.
  @Test(
    "A rule that deadlocks is timed out after T s; every other rule has its normal outcome",
    .timeLimit(.minutes(2)))
  func deadlockingRule() throws {
    let start = ContinuousClock.now
    let (report, children) = try Self.runFixture("runaway-deadlock")
    let elapsed = ContinuousClock.now - start
    let outcome = try #require(report.outcome(of: "REE-02"))
    #expect(outcome == .timedOut(seconds: Self.ruleTimeout, binding: true))
    #expect(outcome.label == "timed out after 10 s")
    #expect(outcome.isFailure && outcome.kind == .timedOut)
    #expect(report.failures.map(\.rule.id) == ["REE-02"])
    Self.expectNormalOutcomes(report, except: "REE-02")
    #expect(children.count == 3)
    #expect(children.allSatisfy { kill($0, 0) != 0 }, "a killed child was not reaped")
    #expect(elapsed >= .seconds(2 * Self.ruleTimeout), "\(elapsed)")
  }

  /// What the `misuse-trap` fixtures declare: nested writes 2 deep, and a trap past that.
  static let trapDeclaration = BackendCapabilities(
    timing: .didSet, [.deliversEveryValue, .synchronousDelivery, .trapsOnMisuse],
    maxReentrancyDepth: .bounded(2))

  /// The linked list declaring a trap on misuse, for the in-process run.
  struct DeclaresTrap<Base: ObservationBackend>: ObservationBackend {
    let base: Base
    var name: String { "declares-trap" }
    var capabilities: BackendCapabilities { ConformanceIsolationTests.trapDeclaration }
    func makeSubject(initialValue: Int) -> Base.Subject {
      base.makeSubject(initialValue: initialValue)
    }
  }

  @Test(
    "ERR-02: a declared trap on misuse is checked in the child, where the trap is the pass")
  func declaredTrap() throws {
    func run(_ name: String) throws -> RuleOutcome {
      let runner = try IsolatedConformanceRunner(
        executable: Self.built("conformance-fixtures"), arguments: [name],
        ruleTimeout: Self.ruleTimeout)
      let report = try runner.run(backendName: name, capabilities: Self.trapDeclaration)
      return try #require(report.outcome(of: "ERR-02"))
    }
    let trapping = try run("misuse-trap")
    #expect(trapping.kind == .passed, "\(trapping.label): \(trapping.details)")
    #expect(trapping.details.contains("trapped (signal"), "\(trapping.details)")
    let claiming = try run("misuse-claimed-trap")
    #expect(claiming.kind == .failed, "\(claiming.label): \(claiming.details)")
    #expect(claiming.details.contains("it went on"), "\(claiming.details)")
    // In process, the misuse would end the run: ERR-02 says it could not check.
    func inProcess<Base: ObservationBackend>(_ base: Base) throws -> RuleOutcome {
      ConformanceSuite.run(
        try #require(ConformanceSuite.rule("ERR-02")), on: DeclaresTrap(base: base))
    }
    let linkedList = try #require(BackendCatalog.backend(named: "linked-list"))
    let unchecked = try inProcess(linkedList)
    #expect(unchecked.kind == .notApplicable)
    #expect(unchecked.details.contains("child process"))
  }

  @Test("An isolated run through `observatory conformance-child` gives the in-process report")
  func sameAsInProcess() throws {
    let runner = try IsolatedConformanceRunner(
      executable: Self.built("observatory"),
      arguments: ["conformance-child", "--backend", Self.linkedList.name])
    let report = try runner.run(Self.linkedList)
    #expect(report.backendName == Self.linkedListInProcess.backendName)
    #expect(report.capabilities == Self.linkedListInProcess.capabilities)
    #expect(report.results.map(\.rule.id) == Self.linkedListInProcess.results.map(\.rule.id))
    for (isolated, inProcess) in zip(report.results, Self.linkedListInProcess.results) {
      #expect(isolated.outcome == inProcess.outcome, "\(isolated.rule.id)")
    }
  }

  @Test(
    "Every outcome, its prose included, crosses the stream unchanged",
    arguments: [
      RuleOutcome.passed(note: nil), .passed(note: ""), .passed(note: "a note, with \"quotes\""),
      .failed([
        Finding(action: "did\nthis", expected: "e | f", observed: "ö 🙂 \\ /"),
        Finding(action: "", expected: "", observed: ""),
      ]),
      .notApplicable("why"), .probe(observed: true, details: "seen"),
      .probe(observed: false, details: ""), .untested("never"),
      .crashed(signal: 11, details: "killed\nby SIGSEGV", binding: true),
      .crashed(signal: nil, details: "exited with status 3", binding: false),
      .timedOut(seconds: 2.5, binding: false), .timedOut(seconds: 300, binding: true),
    ])
  func roundTrip(_ outcome: RuleOutcome) {
    let line = ConformanceStreamLine.outcome(unit: "erased:REE-02", outcome)
    #expect(!line.text.contains("\n"))
    #expect(ConformanceStreamLine(line.text[...]) == line)
  }

  @Test(
    "--rule-timeout takes a positive, finite number of seconds, with a one-line error otherwise",
    arguments: ["0", "-1", "inf", "nan", "ten", ""])
  func invalidRuleTimeout(_ value: String) throws {
    let directory = try HostileInputTests.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try HostileInputTests.run(
      ["conformance", "--backend", "linked-list", "--rule-timeout", value], in: directory)
    #expect(result.status == 1 && !result.signalled, "\(result.errors)")
    #expect(result.errors.contains("--rule-timeout must be a positive, finite number"))
    #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
    #expect(result.output.isEmpty)
  }
}
