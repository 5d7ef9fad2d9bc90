import ObservationConformance
import ObservationConformanceTesting
import ObservationCore
import Testing

@testable import conformance_fixtures

/// Each deliberately broken backend must be caught by the rules that guard against its fault,
/// with messages that name the rule, the backend and what was observed.
@Suite("Broken backends are caught")
struct BrokenBackendTests {
  /// Which rules each fault must fail (it may fail others too).
  static let expectedFailures: [BrokenObservers.Fault: Set<RuleID>] = [
    .skipsNextAfterSelfCancel: ["CAN-05"],
    .removesByStaleIndex: ["CAN-03"],
    .replaysTwice: ["INIT-01", "INIT-05"],
    .ignoresTokenDeinit: ["CAN-02", "CAN-08"],
    .keepsClosureAfterCancel: ["MEM-01"],
    .recursesOnNestedWrite: ["ORD-03", "REE-02", "REE-03", "SUB-03"],
    .notifiesBeforeStore: ["TIM-01", "META-01"],
    .deliversStoredValue: ["DEL-06"],
    .defersNestedStore: ["REE-05"],
    .dropsObserversPast64: ["SCALE-01"],
    .reusesSlotsWithoutGeneration: ["CAN-09"],
    .forgetsCancelsDuringDelivery: ["MEM-07"],
    .registryRetainsTokens: ["MEM-02"],
    .modifiesWithoutNotifying: ["EQ-03"],
    .inputBypassesDelivery: ["ERASE-02"],
    .readOnlyHandleDropsValues: ["ERASE-01", "ERASE-02"],
    .drainsNestedWritesLastFirst: ["ORD-03", "REE-03"],
    .snapshotsHandlersPerQueuedWrite: ["DIFF-01"],
    .recursesThenResendsLatest: ["REE-03"],
    .skipsObserversSubscribedByWritingCallback: ["DIFF-01"],
    .callsSpilledObserversFromCopy: ["DIFF-01"],
    .releaseDuringDeliveryKeepsClosure: ["MEM-01", "MEM-07"],
    .releaseDuringDeliveryIsDeferred: ["DIFF-01"],
    .writeAfterCancelInSameCallbackReachesCancelled: ["DIFF-01"],
    .miscountsObserversCancelledByAnotherCallback: ["DIFF-01"],
  ]

  @Test("The control, with no fault, passes every rule it declares")
  func control() async {
    let report = await FixtureReports.report(BrokenBackend(fault: nil))
    #expect(report.failures.map(\.rule.id) == [])
  }

  @Test(
    "Each fault fails the rules that guard against it", arguments: BrokenObservers.Fault.allCases)
  func faultIsCaught(_ fault: BrokenObservers.Fault) async throws {
    // Only the rules named run (each with the rules it reads, as `ConformanceSuite.run(_:on:)`
    // runs them): what else a fault fails is not this test's question, and the tests that
    // claim a rule alone catches a fault run the whole suite on it.
    let backend = BrokenBackend(fault: fault)
    let expected = try #require(Self.expectedFailures[fault])
    let rules = try expected.sorted().map { id in try #require(ConformanceSuite.rule(id)) }
    let outcomes = await ReportThreads.run {
      Dictionary(uniqueKeysWithValues: rules.map { ($0.id, ConformanceSuite.run($0, on: backend)) })
    }
    let failed = Set(outcomes.filter { $0.value.kind == .failed }.keys)
    #expect(
      expected == failed,
      "\(fault) failed \(failed.sorted()) of \(expected.sorted())")
    for id in expected {
      let messages = try #require(outcomes[id]).failureMessages(
        rule: id.rawValue, backend: backend.name)
      #expect(!messages.isEmpty)
      for message in messages {
        #expect(message.hasPrefix("\(id) failed on backend \(backend.name): did: "))
        #expect(message.contains("; expected: ") && message.contains("; observed: "))
      }
    }
  }

  /// `base`'s subjects and declaration, with willSet timing declared instead. Its histories are
  /// a willSet list's as long as nothing is replayed during a delivery: a replay then shows the
  /// value stored, which a willSet list stores after its callbacks.
  struct DeclaringWillSet<Base: ObservationBackend>: ObservationBackend {
    let base: Base
    var name: String { base.name + "-declared-willSet" }
    var capabilities: BackendCapabilities {
      var declared = base.capabilities
      declared.timing = .willSet
      return declared
    }
    func makeSubject(initialValue: Int) -> Base.Subject {
      base.makeSubject(initialValue: initialValue)
    }
  }

  @Test("DIFF-01 holds willSet backends to the reference model too: a fault fails it, none passes")
  func differentialWillSet() throws {
    let rule = try #require(ConformanceSuite.rule("DIFF-01"))
    let faulty = ConformanceSuite.run(
      rule,
      on: DeclaringWillSet(
        base: BrokenBackend(fault: .snapshotsHandlersPerQueuedWrite, replays: false)))
    #expect(faulty.kind == .failed, "\(faulty.details)")
    #expect(faulty.details.contains("seed "), "\(faulty.details)")
    let correct = ConformanceSuite.run(
      rule, on: DeclaringWillSet(base: BrokenBackend(fault: nil, replays: false)))
    #expect(correct.kind == .passed, "\(correct.details)")
  }

  /// A broken backend for each path DIFF-01 was widened to, with its correct twin, and what
  /// the failure must mention. Before each widening its fault failed no rule: an
  /// unordered backend got no reactions, a callback's cancel reached only observers registered
  /// before it, asynchronous and coalescing backends were `n/a`, and no callback subscribed and
  /// then wrote.
  static let widenedPaths:
    [(broken: any ObservationBackend, correct: any ObservationBackend, mentions: String)] = [
      (
        BrokenBackend(fault: .skipsObserversSubscribedByWritingCallback),
        BrokenBackend(fault: nil), ", then write "
      ),
      (
        UnorderedBrokenBackend(fault: .skipsObserversSubscribedByWritingCallback),
        UnorderedBrokenBackend(fault: nil), "following the backend's observer order"
      ),
      (
        BrokenBackend(fault: .callsSpilledObserversFromCopy), BrokenBackend(fault: nil),
        ": cancel #"
      ),
      (
        AsynchronousBackend(fault: .keepsPendingWritesOfObserversCancelledInATurn),
        AsynchronousBackend(fault: nil), "after its cancel returned"
      ),
      (
        CoalescingBackend(fault: .keepsNextTurnOfObserversCancelledInATurn), CoalescingBackend(),
        "after its cancel returned"
      ),
      (
        AsynchronousBackend(fault: .picksRecipientsWhenTheTurnRuns),
        AsynchronousBackend(fault: nil), "set before it subscribed"
      ),
      // Suite 1.4.0: several operations in one callback, a token's release from a callback,
      // completion as a step and from a callback, and reactions in completion handlers.
      (
        BrokenBackend(fault: .writeAfterCancelInSameCallbackReachesCancelled),
        BrokenBackend(fault: nil), ", then write "
      ),
      (
        BrokenBackend(fault: .releaseDuringDeliveryIsDeferred), BrokenBackend(fault: nil),
        ", then release #"
      ),
      // Suite 1.6.0: what a backend reports about itself, its observer count after each step.
      (
        BrokenBackend(fault: .miscountsObserversCancelledByAnotherCallback),
        BrokenBackend(fault: nil), "observerCount"
      ),
      (
        CompletableBackend(fault: .finishesBroadcastAfterCallbackCompletes),
        CompletableBackend(fault: nil), "complete"
      ),
      (
        CompletableBackend(fault: .registersObserversDuringCompletion),
        CompletableBackend(fault: nil), "on completion: "
      ),
    ]

  @Test(
    "DIFF-01's widened paths: each broken backend fails DIFF-01 alone, its correct twin passes everything it declares",
    arguments: 0..<widenedPaths.count
  )
  func widenedDifferential(_ path: Int) async throws {
    let (broken, correct, mentions) = Self.widenedPaths[path]
    // The correct twins repeat (four paths share one): each runs once per process.
    let report = await FixtureReports.report(broken)
    #expect(report.failures.map(\.rule.id) == ["DIFF-01"], "\(broken.name)")
    let details = try #require(report.outcome(of: "DIFF-01")).details
    #expect(details.contains(mentions), "\(broken.name): \(details)")
    let control = await FixtureReports.report(correct)
    #expect(control.failures.map(\.rule.id) == [], "\(correct.name)")
    #expect(control.outcome(of: "DIFF-01")?.kind == .passed, "\(correct.name)")
  }

  @Test(
    "DIFF-02 rebinds from inside nested-path handlers: a chain that registers along the path it read before calling its handler fails DIFF-02 alone; its correct twin passes everything it declares"
  )
  func nestedPathHandlersRebind() async throws {
    let broken = await FixtureReports.report(
      RebindingNestedPathBackend(fault: .registersAlongThePathReadBeforeTheHandler))
    #expect(broken.failures.map(\.rule.id) == ["DIFF-02"])
    let details = try #require(broken.outcome(of: "DIFF-02")).details
    #expect(details.contains("seed ") && details.contains("(callback "), "\(details)")
    let control = await FixtureReports.report(RebindingNestedPathBackend(fault: nil))
    #expect(control.failures.map(\.rule.id) == [])
    #expect(control.outcome(of: "DIFF-02")?.kind == .passed)
    // The KP rules run on it and hold: the fault is invisible to them.
    for id: RuleID in ["KP-01", "KP-02", "KP-03", "KP-04", "KP-05", "KP-06", "KP-08"] {
      #expect(broken.outcome(of: id)?.kind == .passed, "\(id)")
    }
  }

  @Test(
    "A token released inside a delivery must free what cancel frees: only MEM-01 and MEM-07's release checks catch a backend that parks those closures"
  )
  func releaseInsideDelivery() async throws {
    let broken = await FixtureReports.report(
      BrokenBackend(fault: .releaseDuringDeliveryKeepsClosure))
    #expect(Set(broken.failures.map(\.rule.id)) == ["MEM-01", "MEM-07"])
    let details = try #require(broken.outcome(of: "MEM-01")).details
    #expect(details.contains("releases the last references to its own token"), "\(details)")
    // Before the release checks, both rules cancelled only: the fault passed every rule.
    let control = await FixtureReports.report(BrokenBackend(fault: nil))
    #expect(control.outcome(of: "MEM-01")?.details.contains("inside a delivery") == true)
  }

  @Test("A contradictory declaration is rejected before any rule runs (META-02)")
  func contradictoryDeclaration() throws {
    let report = ConformanceSuite.run(ContradictoryBackend())
    let meta = try #require(report.outcome(of: "META-02"))
    #expect(meta.kind == .failed)
    #expect(meta.details.contains("maxReentrancyDepth is -1"))
    #expect(meta.details.contains("serializedDelivery is declared without threadSafe"))
    #expect(report.outcome(of: "DEL-01")?.kind == .notApplicable)
    let handOffAlone = BackendCapabilities(
      timing: .didSet, [.handsOffContendedWrites, .threadSafe], maxReentrancyDepth: .unbounded)
    do {
      try handOffAlone.validate()
      Issue.record("a hand-off without synchronousDelivery was accepted")
    } catch {
      #expect(
        error.problems == [
          "handsOffContendedWrites is declared without synchronousDelivery; it says how a"
            + " synchronous backend delivers a write that meets another thread's delivery,"
            + " which needs both"
        ])
    }
  }

  @Test(
    "Nested writes unsupported (depth 0) and reported as misuse: the nesting rules are n/a, ERR-03 holds it to the claim"
  )
  func forbiddenNestedWrites() throws {
    let report = ConformanceSuite.run(
      MisuseReportingBackend(bound: 0, reports: true), configuration: FixtureReports.configuration)
    #expect(report.failures.map(\.rule.id) == [])
    for id: RuleID in ["REE-01", "REE-03", "ORD-03", "DEL-06", "REE-05"] {
      let outcome = try #require(report.outcome(of: id))
      #expect(outcome.kind == .notApplicable, "\(id): \(outcome.details)")
      #expect(outcome.details.contains("nested writes unsupported"))
    }
    #expect(report.outcome(of: "ERR-03")?.kind == .passed)
    let bounded = ConformanceSuite.run(
      MisuseReportingBackend(bound: 3, reports: true), configuration: FixtureReports.configuration)
    #expect(bounded.failures.map(\.rule.id) == [])
    #expect(bounded.outcome(of: "ERR-03")?.kind == .passed)
    #expect(bounded.outcome(of: "REE-01")?.kind == .passed)
    let silent = ConformanceSuite.run(
      try #require(ConformanceSuite.rule("ERR-03")),
      on: MisuseReportingBackend(bound: 0, reports: false))
    #expect(silent.kind == .failed, "\(silent.details)")
  }

  @Test("Asynchronous per-write delivery declares itself without failing didSet or willSet")
  func asynchronousTiming() throws {
    let report = ConformanceSuite.run(HoppingBackend(), configuration: FixtureReports.configuration)
    #expect(report.failures.map(\.rule.id) == [])
    #expect(report.outcome(of: "META-01")?.kind == .passed)
    #expect(report.outcome(of: "DEL-05")?.kind == .passed)
    let contradiction = BackendCapabilities(
      timing: .asynchronousOrdered, [.synchronousDelivery], maxReentrancyDepth: .unbounded)
    #expect(throws: CapabilityDeclarationError.self) { try contradiction.validate() }
  }

  @Test("The Swift Testing adapter reports a failure as an issue")
  func adapterRecordsIssues() {
    withKnownIssue {
      checkConformance(
        of: BrokenBackend(fault: .skipsNextAfterSelfCancel), to: ConformanceSuite.rule("CAN-05")!)
    }
  }
}

extension BrokenBackendTests {
  /// Rules that passed what they never exercised (issue: "a pass must mean exercised and held"),
  /// each shown to fail a backend with the fault and to pass one without it.
  @Suite("Rules that could not fail before")
  struct Exercised {
    static let quick = ConformanceConfiguration(stochasticIterations: 3, timeout: 2)

    @Test(
      "THR-05 catches a backend that calls observers under its lock, and passes one that does not")
    func calloutUnderLock() throws {
      let rule = try #require(ConformanceSuite.rules.first { $0.id == "THR-05" })
      let broken = ConformanceSuite.run(
        rule, on: LockingBackend(fault: .callsOutUnderLock), configuration: Self.quick)
      #expect(broken.kind == .failed, "\(broken.details)")
      #expect(broken.details.contains("deadlocked"))
      let correct = ConformanceSuite.run(
        rule, on: LockingBackend(fault: nil), configuration: Self.quick)
      #expect(correct.kind == .passed, "\(correct.details)")
    }

    @Test("THR-06 catches a backend that replays under its lock, and passes one that does not")
    func replayUnderLock() throws {
      let rule = try #require(ConformanceSuite.rule("THR-06"))
      let broken = ConformanceSuite.run(
        rule, on: LockingBackend(fault: .replaysUnderLock), configuration: Self.quick)
      #expect(broken.kind == .failed, "\(broken.details)")
      #expect(broken.details.contains("deadlocked"))
      let correct = ConformanceSuite.run(
        rule, on: LockingBackend(fault: nil), configuration: Self.quick)
      #expect(correct.kind == .passed, "\(correct.details)")
    }

    @Test(
      "THR-07 catches serialized delivery that a nested write breaks; THR-02, without nested writes, does not"
    )
    func serializationAfterNestedWrites() throws {
      let rule = try #require(ConformanceSuite.rule("THR-07"))
      let broken = SerializingBackend(nestedWriteEndsDrain: true)
      let caught = ConformanceSuite.run(rule, on: broken)
      #expect(caught.kind == .failed, "\(caught.details)")
      #expect(caught.details.contains("on two threads at once"))
      // The same loop, declaring its hand-off, is a thread twin that passes THR-07 at full
      // strength isolated (`OpenChoiceTwinTests`); here the probes' 50 iterations.
      let correct = ConformanceSuite.run(
        rule, on: SerializingBackend(nestedWriteEndsDrain: false),
        configuration: FixtureReports.configuration)
      #expect(correct.kind == .passed, "\(correct.details)")
      let withoutNesting = ConformanceSuite.run(
        try #require(ConformanceSuite.rule("THR-02")), on: broken)
      #expect(withoutNesting.kind == .passed, "\(withoutNesting.details)")
    }

    @Test(
      "THR-01: with threadSafe, synchronousDelivery means each set returns after its own delivery"
    )
    func synchronousAcrossThreads() throws {
      let rule = try #require(ConformanceSuite.rule("THR-01"))
      let claiming = ConformanceSuite.run(
        rule, on: SerializingBackend(nestedWriteEndsDrain: false, claimsSynchronousDelivery: true))
      #expect(claiming.kind == .failed, "\(claiming.details)")
      #expect(claiming.details.contains("returned before their value was delivered"))
      // Declaring its hand-off, the loop passes THR-01 at full strength isolated (a thread
      // twin); here the probes' 50 iterations.
      let honest = ConformanceSuite.run(
        rule, on: SerializingBackend(nestedWriteEndsDrain: false),
        configuration: FixtureReports.configuration)
      #expect(honest.kind == .passed, "\(honest.details)")
    }

    @Test(
      "An emitter loop (handsOffContendedWrites) passes every rule it declares; its lost-wake-up twin fails THR-01"
    )
    func emitterLoop() async throws {
      // The loop is a twin of the thread rows: its report is the fixtures' shared one (50
      // iterations of each stochastic rule), and `OpenChoiceTwinTests` runs it isolated at
      // full strength. The twin below fails in its first iterations.
      let report = await FixtureReports.report(ThreadTwins.second)
      #expect(report.failures.map(\.rule.id) == [])
      #expect(report.outcome(of: "THR-08")?.kind == .passed)
      #expect(report.outcome(of: .thr09)?.kind == .passed)
      let rule = try #require(ConformanceSuite.rule("THR-01"))
      let twin = ConformanceSuite.run(
        rule,
        on: SerializingBackend(
          nestedWriteEndsDrain: false, declaresHandOff: true, losesWakeUp: true))
      #expect(twin.kind == .failed, "\(twin.details)")
      #expect(twin.details.contains("ended with a value queued but not delivered"))
    }

    @Test(
      "THR-08 catches hand-off claimed by a list whose writers deliver their own value, or block"
    )
    func handOffClaimed() throws {
      let rule = try #require(ConformanceSuite.rule("THR-08"))
      let delivering = ConformanceSuite.run(
        rule, on: LockingBackend(fault: nil, claimsHandOff: true), configuration: Self.quick)
      #expect(delivering.kind == .failed, "\(delivering.details)")
      #expect(delivering.details.contains("thread B delivered 2 itself"))
      let blocking = ConformanceSuite.run(
        rule, on: LockingBackend(fault: .callsOutUnderLock, claimsHandOff: true),
        configuration: Self.quick)
      #expect(blocking.kind == .failed, "\(blocking.details)")
      #expect(blocking.details.contains("had not returned"))
      let probe = ConformanceSuite.run(
        rule, on: LockingBackend(fault: nil), configuration: Self.quick)
      #expect(probe.kind == .probeNotObserved, "\(probe.details)")
    }

    @Test(
      "THR-09 catches an emitter loop that delivers hand-offs newest first, which every other rule passes; in order, it passes"
    )
    func handOffsLastFirst() async throws {
      // The whole suite at 20 iterations of each stochastic rule, as for DIFF-01's widened
      // paths: THR-09 sees the fault in its first iterations.
      let broken = SerializingBackend(
        nestedWriteEndsDrain: false, declaresHandOff: true, deliversHandOffsLastFirst: true)
      let report = ConformanceSuite.run(
        broken, configuration: ConformanceConfiguration(stochasticIterations: 20))
      #expect(report.failures.map(\.rule.id) == [.thr09], "\(broken.name)")
      let details = try #require(report.outcome(of: .thr09)).details
      #expect(details.contains("in an order some serialization of the writes allows"), "\(details)")
      // In order, the loop is a twin of the thread rows, held to THR-09 at full strength by
      // its isolated run (`OpenChoiceTwinTests`).
      let inOrder = await FixtureReports.report(ThreadTwins.second)
      #expect(inOrder.outcome(of: .thr09)?.kind == .passed)
    }

    @Test(
      "THR-09 catches a list that delivers a value again after another thread's observe or cancel; the rules that count do not"
    )
    func redeliveryAfterConcurrentChange() throws {
      let configuration = ConformanceConfiguration(stochasticIterations: 20)
      let broken = LockingBackend(fault: .redeliversAfterConcurrentChange)
      for id: RuleID in ["THR-01", "THR-03", "THR-04", "DIFF-01"] {
        let rule = try #require(ConformanceSuite.rule(id))
        let outcome = ConformanceSuite.run(rule, on: broken, configuration: configuration)
        #expect(outcome.kind == .passed, "\(id): \(outcome.details)")
      }
      let rule = try #require(ConformanceSuite.rule(.thr09))
      let caught = ConformanceSuite.run(rule, on: broken, configuration: configuration)
      #expect(caught.kind == .failed, "\(caught.details)")
      #expect(caught.details.contains("at most once"), "\(caught.details)")
      let correct = ConformanceSuite.run(rule, on: LockingBackend(fault: nil))
      #expect(correct.kind == .passed, "\(correct.details)")
    }

    @Test(
      "THR-09's second script, every thread observing, setting and cancelling, catches a list that compacts a copy outside its lock; the rules that count do not, and the list that compacts under its lock passes"
    )
    func compactionRacingRegistration() throws {
      let configuration = ConformanceConfiguration(stochasticIterations: 20)
      let broken = LockingBackend(fault: .compactsACopyOutsideTheLock)
      for id: RuleID in ["THR-01", "THR-03", "THR-04", "DIFF-01", "MEM-05"] {
        let rule = try #require(ConformanceSuite.rule(id))
        let outcome = ConformanceSuite.run(rule, on: broken, configuration: configuration)
        #expect(outcome.kind == .passed, "\(id): \(outcome.details)")
      }
      let rule = try #require(ConformanceSuite.rule(.thr09))
      let caught = ConformanceSuite.run(rule, on: broken, configuration: configuration)
      #expect(caught.kind == .failed, "\(caught.details)")
      #expect(caught.details.contains("4 threads, each 40 rounds"), "\(caught.details)")
      let correct = ConformanceSuite.run(rule, on: LockingBackend(fault: nil))
      #expect(correct.kind == .passed, "\(correct.details)")
    }

    @Test("THR-01's default iterations catch a write lost once in 50,000")
    func rareLostWrite() throws {
      let rule = try #require(ConformanceSuite.rule("THR-01"))
      let caught = ConformanceSuite.run(rule, on: LockingBackend(fault: .losesRareWrites))
      #expect(caught.kind == .failed, "\(caught.details)")
      let correct = ConformanceSuite.run(rule, on: LockingBackend(fault: nil))
      #expect(correct.kind == .passed, "\(correct.details)")
    }

    @Test(
      "REE-04 binds by the binding's own writes: bound 2 passes, bound 1 is n/a, no suppression fails"
    )
    func twoWayBinding() throws {
      let rule = try #require(ConformanceSuite.rules.first { $0.id == "REE-04" })
      let two = ConformanceSuite.run(rule, on: SuppressingBackend(depth: 2, suppresses: true))
      #expect(two.kind == .passed, "\(two.details)")
      let one = ConformanceSuite.run(rule, on: SuppressingBackend(depth: 1, suppresses: true))
      #expect(one.kind == .notApplicable, "\(one.details)")
      #expect(one.details.contains("2 deep"))
      let liar = ConformanceSuite.run(rule, on: SuppressingBackend(depth: 8, suppresses: false))
      #expect(liar.kind == .failed, "\(liar.details)")
      #expect(liar.details.contains("still bouncing"))
    }
  }
}

extension BrokenBackendTests {
  /// Each broken backend DIFF-01 compares with the reference model, and the sentence of the
  /// contract its first departure breaks.
  static let brokenSentences: [(backend: any ObservationBackend, sentence: String)] = [
    (BrokenBackend(fault: .snapshotsHandlersPerQueuedWrite), "(CAN-01)"),
    (BrokenBackend(fault: .skipsObserversSubscribedByWritingCallback), "(DEL-01, DEL-05)"),
    (UnorderedBrokenBackend(fault: .skipsObserversSubscribedByWritingCallback), "(DEL-01, DEL-05)"),
    (BrokenBackend(fault: .callsSpilledObserversFromCopy), "(CAN-01)"),
    (BrokenBackend(fault: .writeAfterCancelInSameCallbackReachesCancelled), "(CAN-01)"),
    (BrokenBackend(fault: .releaseDuringDeliveryIsDeferred), "(CAN-01)"),
    (CompletableBackend(fault: .finishesBroadcastAfterCallbackCompletes), "(TERM-01)"),
    (CompletableBackend(fault: .registersObserversDuringCompletion), "(TERM-03)"),
    (BrokenBackend(fault: .miscountsObserversCancelledByAnotherCallback), "(MEM-05, MEM-07)"),
  ]

  @Test(
    "A DIFF-01 failure names the step and the sentence of the contract it breaks, not an allowed difference before it",
    arguments: 0..<brokenSentences.count)
  func failureNamesTheSentence(_ index: Int) throws {
    let (backend, sentence) = Self.brokenSentences[index]
    let outcome = ConformanceSuite.run(try #require(ConformanceSuite.rule("DIFF-01")), on: backend)
    #expect(outcome.kind == .failed, "\(backend.name)")
    #expect(outcome.details.contains("; the contract: "), "\(backend.name): \(outcome.details)")
    #expect(outcome.details.contains(sentence), "\(backend.name): \(outcome.details)")
  }
}
