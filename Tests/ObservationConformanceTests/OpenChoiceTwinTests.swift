import ObservationConformance
import ObservationConformanceTesting
import ObservationCore
import Testing

@testable import conformance_fixtures

/// The false-failure tests: where the contract leaves a choice open, two correct backends that
/// choose differently both pass every rule they declare, isolated, as an adopter runs the
/// suite, and through their erased handles (ERASE-01 runs the whole suite on those).
///
/// An isolated run holds a backend to more than an in-process one (the THR rules at full
/// strength, the probes of undeclared concurrency in child processes), so only the twins the
/// fixtures' harness does not make run in process here; the others' in-process reports are
/// read where a test needs one (`FixtureReports`).
@Suite("Where the contract leaves a choice open, both choices pass")
struct OpenChoiceTwinTests {
  /// The open points' twins that the fixtures' harness executable also makes, so that an
  /// isolated run reaches them.
  static let isolatedTwins:
    [(point: String, first: any ObservationBackend, second: any ObservationBackend)] =
      OpenChoiceBackend.twins.map { ($0.point, $0.first, $0.second) } + [
        (
          "values waiting for their turn when an asynchronous backend's observer is cancelled",
          TurnQueueBackend.twins.first, TurnQueueBackend.twins.second
        ),
        (
          "which value a replay on a later turn carries",
          TurnQueueBackend.laterReplayTwins.first, TurnQueueBackend.laterReplayTwins.second
        ),
        (
          "values still waiting when an asynchronous backend completes",
          TurnQueueCompletableBackend(completion: .dropsWaitingWrites),
          TurnQueueCompletableBackend(completion: .deliversWaitingWritesFirst)
        ),
        (
          "writes still waiting when an asynchronous subject is released",
          TurnQueueBackend(removal: .dropsPendingWrites),
          FlushingBackend(cancelsThroughTheSubject: false)
        ),
        (
          "a write to another subject made from a callback",
          TrampolineBackend(sharing: .perSubject), TrampolineBackend(sharing: .shared)
        ),
        (
          "a nested-path observer registered while a write is under way",
          RebindingNestedPathBackend.twins.first, RebindingNestedPathBackend.twins.second
        ),
        (
          "through which links a nested path's observers get a write made during a delivery",
          RebindingNestedPathBackend.rebindingTwins.first,
          RebindingNestedPathBackend.rebindingTwins.second
        ),
        (
          "values waiting for their turn when a nested path's observer is cancelled",
          LaterTurnNestedPathBackend.twins.first, LaterTurnNestedPathBackend.twins.second
        ),
        (
          "a write still pending when an observer subscribes (asynchronous, coalescing)",
          CoalescingTurnQueueBackend.twins.first, CoalescingTurnQueueBackend.twins.second
        ),
        (
          "writes on several threads at once: overlapping callbacks, the order of overlapping writes, a write that overlapped a cancel",
          ThreadTwins.first, ThreadTwins.second
        ),
        (
          "which value a replay carries when writes on other threads race it",
          ThreadTwins.replayTwins.first, ThreadTwins.replayTwins.second
        ),
      ]

  /// The open points' twins that only run in process.
  static let inProcessTwins:
    [(point: String, first: any ObservationBackend, second: any ObservationBackend)] = [
      (
        "the order of observers within a broadcast, none declared",
        UnorderedBrokenBackend(fault: nil, newestFirst: false),
        UnorderedBrokenBackend(fault: nil, newestFirst: true)
      )
    ]

  @Test(
    "An asynchronous list that drops the writes waiting for a cancelled observer passes everything it declares with immediateCancellation"
  )
  func immediateCancellation() async {
    let report = await FixtureReports.report(TurnQueueBackend(removal: .dropsPendingWrites))
    #expect(report.failures.map(\.rule.id) == [])
    #expect(report.outcome(of: "CAN-06")?.kind == .passed)
  }

  @Test(
    "The twins outside the fixtures' harness pass every rule they declare, in process and through their erased handles",
    arguments: 0..<inProcessTwins.count)
  func inProcess(_ point: Int) async throws {
    let (name, first, second) = Self.inProcessTwins[point]
    for backend in [first, second] {
      let report = await FixtureReports.report(backend)
      #expect(report.failures.map(\.rule.id) == [], "\(name): \(backend.name)")
      let difference = try #require(report.outcome(of: "DIFF-01"))
      #expect(difference.kind == .passed, "\(name): \(backend.name): \(difference.details)")
      #expect(report.outcome(of: "ERASE-01")?.kind == .passed, "\(name): \(backend.name)")
    }
  }

  @Test(
    "Each open point's twins pass every rule they declare isolated, each rule in a child process of the fixtures' harness, directly and through their erased handles",
    arguments: 0..<isolatedTwins.count)
  func isolated(_ point: Int) throws {
    let (name, first, second) = Self.isolatedTwins[point]
    let runner = try IsolatedConformanceRunner(
      executable: IsolatedConformanceRunner.executableBuiltBesideTests(
        named: "conformance-fixtures"))
    for backend in [first, second] {
      let report = try runner.run(backendName: backend.name, capabilities: backend.capabilities)
      #expect(report.failures.map(\.rule.id) == [], "\(name): \(backend.name)")
      #expect(report.outcome(of: "DIFF-01")?.kind == .passed, "\(name): \(backend.name)")
      #expect(report.outcome(of: "ERASE-01")?.kind == .passed, "\(name): \(backend.name)")
    }
  }

  @Test(
    "A nested path's observations rebound each before its handler get a handler's write to the new path only at their turn; rebound all first, through the new path at once too",
    arguments: RebindingNestedPathFixture.Rebinding.allCases)
  func rebindingLinks(_ rebinding: RebindingNestedPathFixture.Rebinding) {
    final class Seen { var titles: [[String?]] = [[], []] }
    let fixture = RebindingNestedPathFixture(fault: nil, rebinding: rebinding)
    let root = fixture.makeNode(title: "root")
    let old = fixture.makeNode(title: "a")
    let new = fixture.makeNode(title: "b")
    fixture.setNext(old, of: root)
    let seen = Seen()
    let first = fixture.observeTitle(depth: 2, from: root) { title in
      seen.titles[0].append(title)
      if title == "b" { fixture.setTitle("b2", of: new) }
    }
    let second = fixture.observeTitle(depth: 2, from: root) { seen.titles[1].append($0) }
    fixture.setNext(new, of: root)
    withExtendedLifetime((first, second)) {}
    #expect(seen.titles[0] == ["a", "b", "b2"])
    switch rebinding {
    case .eachBeforeItsHandler: #expect(seen.titles[1] == ["a", "b2"])
    case .allBeforeAnyHandler: #expect(seen.titles[1] == ["a", "b2", "b2"])
    }
  }

  @Test(
    "DIFF-01 subscribes from callbacks on a replaying backend and follows its replay (stored value or value under delivery): one that replays the value under delivery and then skips the writes queued before the subscription fails DIFF-01 alone"
  )
  func lateReplay() async throws {
    let broken = await FixtureReports.report(
      OpenChoiceBackend(choices: .init(replays: true, lateReplay: .valueInFlightSkippingQueued)))
    #expect(broken.failures.map(\.rule.id) == ["DIFF-01"])
    let details = try #require(broken.outcome(of: "DIFF-01")).details
    #expect(details.contains("subscribe #"), "\(details)")
  }

  @Test(
    "A recursing willSet list whose outer write stores its value after a callback's newer write ends on an older value: REE-03 and DIFF-01 fail it"
  )
  func willSetStoreAfterNestedWrite() async throws {
    let broken = await FixtureReports.report(
      OpenChoiceBackend(
        choices: .init(
          nestedWrite: .recursesSkippingOlder, willSet: true, storesOuterValueLast: true)))
    let failed = Set(broken.failures.map(\.rule.id))
    #expect(failed.isSuperset(of: ["REE-02", "REE-03", "DIFF-01"]), "\(failed.sorted())")
    let details = try #require(broken.outcome(of: "DIFF-01")).details
    #expect(details.contains("get returns the last value set"), "\(details)")
  }

  @Test(
    "A backend that declares cancelsOnLaterTurn but lets a write made after the cancel returned reach the observer fails DIFF-01 and CAN-02, naming the write"
  )
  func cancelOnItsOwnTurn() async throws {
    let report = await FixtureReports.report(TurnQueueBackend(removal: .removesOnItsTurn))
    let failed = Set(report.failures.map(\.rule.id))
    #expect(failed.isSuperset(of: ["DIFF-01", "CAN-02", "CAN-01"]), "\(failed.sorted())")
    let details = try #require(report.outcome(of: "DIFF-01")).details
    #expect(details.contains("set after the cancel returned"), "\(details)")
    #expect(details.contains("but values set before it returned (cancelsOnLaterTurn)"))
  }

  @Test(
    "Without cancelsOnLaterTurn, the writes waiting at a cancel are not the observer's: the backend that keeps them, declaring neither word, still fails DIFF-01"
  )
  func keptWritesNeedTheWord() async throws {
    struct Undeclared: ObservationBackend {
      let base = TurnQueueBackend(removal: .keepsPendingWrites)
      var name: String { "turn-queue-keeps-pending-writes-undeclared" }
      var capabilities: BackendCapabilities {
        var declared = base.capabilities
        declared.flags.remove(.cancelsOnLaterTurn)
        return declared
      }
      func makeSubject(initialValue: Int) -> TurnQueueObservers {
        base.makeSubject(initialValue: initialValue)
      }
      func awaitDelivery(until condition: () -> Bool, timeout: Duration) -> Bool {
        base.awaitDelivery(until: condition, timeout: timeout)
      }
      func awaitScheduledDeliveries(timeout: Duration) -> Bool {
        base.awaitScheduledDeliveries(timeout: timeout)
      }
    }
    let rule = try #require(ConformanceSuite.rule("DIFF-01"))
    let outcome = ConformanceSuite.run(rule, on: Undeclared())
    #expect(outcome.kind == .failed, "\(outcome.details)")
    #expect(outcome.details.contains("but the value in flight then"), "\(outcome.details)")
  }

  @Test(
    "DIFF-01 completes asynchronous backends: one that runs the completion handlers before the writes still waiting fails DIFF-01 alone"
  )
  func asynchronousCompletion() async throws {
    let report = await FixtureReports.report(
      TurnQueueCompletableBackend(completion: .completesBeforeWaitingWrites))
    #expect(report.failures.map(\.rule.id) == ["DIFF-01"])
    let details = try #require(report.outcome(of: "DIFF-01")).details
    #expect(details.contains("after its completion handler ran (TERM-01)"), "\(details)")
    for id: RuleID in ["TERM-01", "TERM-02", "TERM-03", "TERM-04", "TERM-05"] {
      #expect(report.outcome(of: id)?.kind == .passed, "\(id)")
    }
  }

  @Test(
    "MEM-08 alone catches a list whose waiting writes outlive the subject and whose tokens then cancel nothing; the flushing list that cancels through its slots passes"
  )
  func cancelAfterTheSubjectDied() async throws {
    let broken = await FixtureReports.report(FlushingBackend(cancelsThroughTheSubject: true))
    #expect(broken.failures.map(\.rule.id) == ["MEM-08"])
    let details = try #require(broken.outcome(of: "MEM-08")).details
    #expect(details.contains("nothing reaches #0 after its cancel returned"), "\(details)")
    #expect(details.contains("it received [1, 2]"), "\(details)")
    let rule = try #require(ConformanceSuite.rule("MEM-08"))
    let correct = ConformanceSuite.run(rule, on: FlushingBackend(cancelsThroughTheSubject: false))
    #expect(correct.kind == .passed, "\(correct.details)")
    #expect(correct.details.contains("still waiting when the subject was released"))
  }

  @Test(
    "REE-06 and DIFF-01's two-subject scripts catch subjects that share a reentrancy flag but not a queue: a write to another subject made from a callback is lost"
  )
  func writeToAnotherSubject() async throws {
    let broken = await FixtureReports.report(TrampolineBackend(sharing: .sharedFlagOwnQueues))
    #expect(broken.failures.map(\.rule.id) == ["REE-06", "DIFF-01"])
    let details = try #require(broken.outcome(of: "REE-06")).details
    #expect(details.contains("observer #1 of B receives every value of [101, 102]"), "\(details)")
    let scripts = try #require(broken.outcome(of: "DIFF-01")).details
    #expect(scripts.contains("over two subjects A and B"), "\(scripts)")
  }

  @Test(
    "DIFF-01's two-subject scripts alone catch a shared trampoline that parks a cancel of another subject's observer until it drains"
  )
  func cancelOfAnotherSubjectsObserver() async throws {
    let broken = await FixtureReports.report(
      TrampolineBackend(sharing: .sharedDefersOtherSubjectsCancels))
    #expect(broken.failures.map(\.rule.id) == ["DIFF-01"])
    let details = try #require(broken.outcome(of: "DIFF-01")).details
    #expect(details.contains("over two subjects A and B"), "\(details)")
    #expect(details.contains("after cancel returns, that observer gets nothing more"), "\(details)")
  }

  @Test(
    "DIFF-01's two-subject scripts on the delivery properties alone catch a turn queue that parks a cancel made during another subject's turn; the queue that drops at once passes them"
  )
  func cancelDuringAnotherSubjectsTurn() async throws {
    let broken = await FixtureReports.report(
      TurnQueueBackend(removal: .parksCancelsFromAnotherSubjectsTurn))
    #expect(broken.failures.map(\.rule.id) == ["DIFF-01"])
    let details = try #require(broken.outcome(of: "DIFF-01")).details
    #expect(details.contains("over two subjects A and B"), "\(details)")
    // The observer of A cancelled from B's callback, during B's turn, gets A's waiting write.
    #expect(details.contains("after its cancel returned; the contract: after cancel returns"))
    let correct = await FixtureReports.report(TurnQueueBackend(removal: .dropsPendingWrites))
    let scripts = try #require(correct.outcome(of: "DIFF-01"))
    #expect(scripts.kind == .passed, "\(scripts.details)")
    #expect(scripts.details.contains("over two subjects whose callbacks write each other"))
  }

  @Test(
    "DIFF-02 follows cancelsOnLaterTurn: a nested chain whose cancel waits for a turn fails it alone, at a title changed after the cancel returned"
  )
  func nestedPathCancelOnItsTurn() async throws {
    let broken = await FixtureReports.report(LaterTurnNestedPathBackend(cancel: .cancelsOnItsTurn))
    #expect(broken.failures.map(\.rule.id) == ["DIFF-02"])
    let details = try #require(broken.outcome(of: "DIFF-02")).details
    #expect(
      details.contains("but titles the path had before it returned (cancelsOnLaterTurn)"),
      "\(details)")
    #expect(details.contains("the contract: after cancel returns, that observer gets nothing more"))
    // The chain that keeps the calls waiting delivers some after a cancel returned: the pass
    // is the allowance's, not a script that never tried it.
    let keeping = await FixtureReports.report(LaterTurnNestedPathBackend.twins.first)
    #expect(keeping.outcome(of: "DIFF-02")?.kind == .passed)
  }

  @Test(
    "DIFF-01 follows a split nested write: a list that splits it and still gives its later part to an observer cancelled meanwhile fails DIFF-01 alone"
  )
  func splitNestedWrite() async throws {
    let broken = await FixtureReports.report(
      OpenChoiceBackend(choices: .init(nestedWrite: .splitAfterBroadcastReachingCancelled)))
    #expect(broken.failures.map(\.rule.id) == ["DIFF-01"])
    let details = try #require(broken.outcome(of: "DIFF-01")).details
    #expect(details.contains("(the model splitting nested writes:"), "\(details)")
    #expect(
      details.contains("the contract: after cancel returns, that observer gets nothing more"),
      "\(details)")
  }

  @Test(
    "SUB-02 accepts a willSet list's late subscriber replayed the stored value, then given v by the broadcast; @Published, whose late subscriber never gets v, still fails it"
  )
  func willSetLateReplay() async throws {
    let stored = await FixtureReports.report(
      OpenChoiceBackend(choices: .init(replays: true, lateReplay: .storedValue, willSet: true)))
    #expect(stored.outcome(of: "SUB-02")?.kind == .passed)
    #expect(stored.outcome(of: "DIFF-01")?.kind == .passed)
    let published = await SharedReports.report("combine-published", .direct)
    let late = try #require(published.outcome(of: "SUB-02"))
    #expect(late.kind == .failed)
    #expect(late.details.contains("or [0, 1, 2, 3] (willSet"), "\(late.details)")
    #expect(late.details.contains("observed: [0, 2, 3]"), "\(late.details)")
  }

  @Test("cancelsOnLaterTurn contradicts immediateCancellation and synchronousDelivery (META-02)")
  func laterTurnContradictions() {
    for other: Capability in [.immediateCancellation, .synchronousDelivery] {
      let declared = BackendCapabilities(
        timing: .didSet, [.cancelsOnLaterTurn, other], maxReentrancyDepth: .unbounded)
      #expect(throws: CapabilityDeclarationError.self, "\(other)") { try declared.validate() }
    }
  }
}
