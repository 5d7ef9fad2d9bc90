import Foundation
import ObservationBackends
import ObservationConformanceTesting
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
    try IsolatedConformanceRunner.executableBuiltBesideTests(named: name)
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
      executable: built("conformance-fixtures"), ruleTimeout: ruleTimeout)
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

  /// The THR rules an isolated run probes on the linked list, which does not declare
  /// `threadSafe`: in process they are n/a.
  static let concurrencyProbes = ConformanceSuite.rules.filter {
    ConformanceSuite.isChildProcessProbe($0, for: linkedList.capabilities)
  }.map(\.id)

  /// Checks that every rule of `report` but `broken` has the outcome it has on the linked list
  /// in process: the same kind, and the same prose except in ERASE-01 and META-01, which count
  /// and name what the others did; the THR rules, n/a in process, are probes here, and a crash or hang during one is its
  /// "not observed".
  static func expectNormalOutcomes(
    _ report: ConformanceReport, except broken: RuleID,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(report.results.count == linkedListInProcess.results.count)
    for reference in linkedListInProcess.results where reference.rule.id != broken {
      let outcome = report.outcome(of: reference.rule.id)
      if concurrencyProbes.contains(reference.rule.id) {
        #expect(reference.outcome.kind == .notApplicable, sourceLocation: sourceLocation)
        #expect(
          reference.outcome.details.contains("probed only in an isolated run"),
          sourceLocation: sourceLocation)
        #expect(
          outcome?.kind.isProbe == true,
          "\(reference.rule.id): \(outcome?.label ?? "missing")", sourceLocation: sourceLocation)
      } else if reference.rule.id == "ERASE-01" || reference.rule.id == "META-01" {
        // Their prose counts rules, and META-01 names what the THR probes observed.
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
    // One child for the rules before REE-02, one up to ERASE-01's re-run of REE-02, one after,
    // and one more for each THR probe, after which its child ends.
    #expect(children.count == 3 + Self.concurrencyProbes.count)
    #expect(children.allSatisfy { kill($0, 0) != 0 }, "a child outlived its run")
    // The Swift Testing adapter over the isolated report: the crash is an issue at the caller
    // (a known one here), every other rule none.
    for rule in ConformanceSuite.rules {
      if rule.id == "REE-02" {
        withKnownIssue { checkConformance(of: rule, in: report) }
      } else {
        checkConformance(of: rule, in: report)
      }
    }
  }

  // A watchdog that does not fire would hang the run: the limit makes that a failure. It is a
  // hang guard, not a speed target: the whole suite runs in children here, beside every other
  // test on two cores, which took 183 s in one CI run, so the limit is the test step's own scale.
  @Test(
    "A rule that deadlocks is timed out after T s; every other rule has its normal outcome",
    .timeLimit(.minutes(6)))
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
    #expect(children.count == 3 + Self.concurrencyProbes.count)
    #expect(children.allSatisfy { kill($0, 0) != 0 }, "a killed child was not reaped")
    #expect(elapsed >= .seconds(2 * Self.ruleTimeout), "\(elapsed)")
  }

  // Before the stall timeout, the spin cost the rule timeout twice (REE-02, then its re-run
  // through the erased handles): ten minutes at the default. The limit is a hang guard at the
  // test step's scale, as above; the elapsed time is the claim.
  @Test(
    "A rule that spins forever is stopped after the stall timeout, not the rule timeout",
    .timeLimit(.minutes(6)))
  func spinningRule() throws {
    let runner = try IsolatedConformanceRunner(
      executable: Self.built("conformance-fixtures"))
    #expect(runner.ruleTimeout == IsolatedConformanceRunner.defaultRuleTimeout)
    let start = ContinuousClock.now
    let report = try runner.run(
      backendName: "runaway-spin", capabilities: Self.linkedList.capabilities)
    let elapsed = ContinuousClock.now - start
    let stall = IsolatedConformanceRunner.defaultStallTimeout
    let outcome = try #require(report.outcome(of: "REE-02"))
    #expect(outcome == .timedOut(seconds: stall, binding: true), "\(outcome.label)")
    #expect(report.failures.map(\.rule.id) == ["REE-02"])
    Self.expectNormalOutcomes(report, except: "REE-02")
    #expect(elapsed >= .seconds(2 * stall), "\(elapsed)")
    #expect(elapsed < .seconds(IsolatedConformanceRunner.defaultRuleTimeout / 2), "\(elapsed)")
  }

  @Test("A rule that is slow but makes progress runs past the stall timeout to its outcome")
  func slowRule() throws {
    let stall = 3.0
    let runner = try IsolatedConformanceRunner(
      executable: Self.built("conformance-fixtures"),
      stallTimeout: stall)
    let start = ContinuousClock.now
    let report = try runner.run(
      backendName: "runaway-slow", capabilities: Self.linkedList.capabilities)
    let elapsed = ContinuousClock.now - start
    // REE-02 takes 5 s, and as long again through the erased handles: each longer than the
    // stall timeout, and neither killed.
    #expect(elapsed >= .seconds(10), "\(elapsed)")
    #expect(report.outcome(of: "REE-02") == Self.linkedListInProcess.outcome(of: "REE-02"))
    #expect(report.failures.isEmpty, "\(report.failures.map(\.rule.id))")
    Self.expectNormalOutcomes(report, except: "")
  }

  /// What the `gated-slow` and `gated-deadlock` fixtures declare (`GatedBackend`).
  static let gatedDeclaration = BackendCapabilities(
    timing: .didSet,
    [
      .deliversEveryValue, .synchronousDelivery, .threadSafe, .serializedDelivery,
      .cancelsOnTokenDeinit,
    ],
    maxReentrancyDepth: .unbounded)

  /// An isolated run of SCALE-01 alone: the rule's outcome, the kinds of every other rule's
  /// (`untested`), and how long the run took.
  struct ScaleRun: Sendable {
    let outcome: RuleOutcome?
    let others: Set<RuleOutcome.Kind>
    let elapsed: Duration
  }

  /// Runs SCALE-01 alone isolated on the fixture backend called `name`, with the default
  /// timeouts, on a thread of its own: the run mostly waits for its child, and must not hold
  /// one of the cooperative pool's threads (two on a 2-core machine) for half a minute.
  static func scaleRuleIsolated(_ name: String) async throws -> ScaleRun {
    let runner = try IsolatedConformanceRunner(
      executable: built("conformance-fixtures"))
    return try await ReportThreads.run {
      Result { () throws -> ScaleRun in
        let start = ContinuousClock.now
        let report = try runner.run(
          backendName: name, capabilities: gatedDeclaration, only: ["SCALE-01"])
        return ScaleRun(
          outcome: report.outcome(of: "SCALE-01"),
          others: Set(report.results.filter { $0.rule.id != "SCALE-01" }.map(\.outcome.kind)),
          elapsed: ContinuousClock.now - start)
      }
    }.get()
  }

  // The two tests below are timed, and only to bound a deadlock, not to measure anything: the
  // slow backend's run must outlast the stall timeout (else it would not show that a slow
  // backend is let finish), and the deadlocking one's must end within seconds of the deadlock.
  @Test(
    "A correct backend slow at 10,000 observers (O(n) subscribe and cancel) passes SCALE-01 isolated, past the stall timeout"
  )
  func slowScaleRule() async throws {
    let run = try await Self.scaleRuleIsolated("gated-slow")
    #expect(
      run.outcome == .passed(note: nil),
      "\(run.outcome?.label ?? "missing"): \(run.outcome?.details ?? "")")
    #expect(run.others == [.untested])
    #expect(
      run.elapsed > .seconds(IsolatedConformanceRunner.defaultStallTimeout + 5), "\(run.elapsed)")
  }

  @Test("Its twin, which deadlocks at 1,000 observers, times out in SCALE-01 within seconds")
  func deadlockingScaleRule() async throws {
    let run = try await Self.scaleRuleIsolated("gated-deadlock")
    guard case .timedOut(let seconds, let binding)? = run.outcome else {
      Issue.record("\(run.outcome?.label ?? "missing"): \(run.outcome?.details ?? "")")
      return
    }
    // The stall timeout, unless a loaded machine made the rule pause for over 3 s before.
    #expect(binding && seconds >= IsolatedConformanceRunner.defaultStallTimeout, "\(seconds)")
    #expect(run.others == [.untested])
    // The deadlock is killed 10 s after its last progress; the margin is the machine's load.
    #expect(run.elapsed < .seconds(25), "\(run.elapsed)")
  }

  @Test("The stall limit is the stall timeout, or three times the longest gap between progress")
  func stallLimit() {
    let start = DispatchTime(uptimeNanoseconds: 1_000_000_000_000)
    func at(_ seconds: Double) -> DispatchTime { start + seconds }
    var limit = StallLimit(floor: 10, start: start)
    #expect(limit.seconds == 10 && limit.deadline == at(10))
    // A heartbeat a second: the floor.
    for second in 1...20 { limit.progressed(at: at(Double(second))) }
    #expect(limit.seconds == 10 && limit.deadline == at(30))
    // One pause of 4.5 s: three times that, in whole seconds, from the last progress.
    limit.progressed(at: at(24.5))
    #expect(limit.seconds == 14 && limit.deadline == at(38.5))
    // Shorter gaps after it do not shrink it; a progress line out of order changes nothing.
    limit.progressed(at: at(25.5))
    limit.progressed(at: at(25))
    #expect(limit.seconds == 14 && limit.deadline == at(39.5))
    #expect(StallLimit(floor: 2, start: start).seconds == 2)
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
        executable: Self.built("conformance-fixtures"),
        ruleTimeout: Self.ruleTimeout)
      // ERR-02 alone: the other rules' outcomes on a fixture that traps in one rule are the
      // question of `trappingRule`, and the whole suite twice, isolated, was 28 s of this
      // test's 30 s of processor time.
      let report = try runner.run(
        backendName: name, capabilities: Self.trapDeclaration, only: ["ERR-02"])
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

  @Test(
    "THR rules probe a backend that does not declare threadSafe, in a child process: a trap off its thread is 'not observed', a lock that makes it safe is 'not seen violated', never credited"
  )
  func concurrencyProbes() throws {
    func run(
      _ name: String, declaring capabilities: BackendCapabilities
    ) throws
      -> ConformanceReport
    {
      // A probe's 50 iterations of 4 threads took more than 10 s under the address sanitizer
      // beside the benchmarks: the probes get the minute they have in a real run, and a hang
      // is still stopped by the stall timeout.
      let runner = try IsolatedConformanceRunner(
        executable: Self.built("conformance-fixtures"),
        ruleTimeout: IsolatedConformanceRunner.concurrencyProbeTimeout)
      return try runner.run(backendName: name, capabilities: capabilities)
    }
    let confined = try run("thread-confined", declaring: Self.linkedList.capabilities)
    let trapped = try #require(confined.outcome(of: "THR-01"))
    #expect(trapped.kind == .probeNotObserved, "\(trapped.label): \(trapped.details)")
    #expect(trapped.details.contains("killed by signal"), "\(trapped.details)")
    #expect(trapped.details.contains("written off the thread that made it"), "\(trapped.details)")
    #expect(!trapped.isFailure && confined.failures.isEmpty)
    let locked = try run(
      "locked-undeclared",
      declaring: BackendCapabilities(
        timing: .didSet,
        [.replaysCurrentValue, .deliversEveryValue, .synchronousDelivery, .cancelsOnTokenDeinit],
        maxReentrancyDepth: .bounded(0)))
    for id: RuleID in ["THR-01", "THR-03", "THR-05"] {
      let outcome = try #require(locked.outcome(of: id))
      // No race seen is no evidence of thread safety: the probe is not credited (META-01).
      #expect(
        outcome.kind == .probeNotSeenViolated, "\(id): \(outcome.label): \(outcome.details)")
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
    let line = ConformanceStreamLine.outcome(unit: .erased("REE-02"), outcome)
    #expect(!line.text.contains("\n"))
    #expect(line.text.hasPrefix("outcome erased:REE-02 {"), "\(line.text)")
    #expect(ConformanceStreamLine(line.text[...]) == line)
  }

  @Test("A unit is a rule's identifier, or erased: and one, both ways")
  func unitText() {
    let units: [(ConformanceStreamLine.Unit, String)] = [
      (.rule("REE-02"), "REE-02"), (.erased("REE-02"), "erased:REE-02"),
      (.rule("ERASE-01"), "ERASE-01"), (.erased("ERASE-02"), "erased:ERASE-02"),
    ]
    for (unit, text) in units {
      #expect(unit.description == text)
      #expect(ConformanceStreamLine.Unit(text[...]) == unit)
      #expect(
        ConformanceStreamLine.starting(unit: unit, binding: false).text == "starting \(text) probe")
    }
  }

}
