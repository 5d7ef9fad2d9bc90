import ObservationCore
import ObservationFixtures

/// DIFF-01: seeded random scripts, replayed on the backend. A synchronous backend that delivers
/// every value must give the histories of ``ReferenceObservers`` configured from its declaration
/// (following the backend's observer order where none is declared); any other backend
/// (asynchronous, coalescing) must keep the ``DeliveryProperties`` its declaration implies,
/// with `deliver` steps that give it its turns between writes, cancels and subscriptions.
enum DifferentialRules {
  typealias Reactions = DifferentialScript.Reactions

  /// Scripts per backend (before ``ConformanceConfiguration/scriptDivisor``), and steps per
  /// script.
  static let scripts = 60
  static let stepsPerScript = 120
  /// Scripts over two subjects whose callbacks write each other, after the others, on a
  /// backend whose nested writes fit its bound: compared with the model exactly, or each subject
  /// held to its own delivery properties (before ``ConformanceConfiguration/scriptDivisor``).
  static let twoSubjectScripts = 20
  /// Scripts over the two properties of one object of the backend's own
  /// (``PropertyPairBackend``), with observers of its will-change signal where it has one,
  /// after the others, on a backend compared with the model exactly (before
  /// ``ConformanceConfiguration/scriptDivisor``).
  static let aggregateScripts = 20

  static let all: [ConformanceRule] = [
    ConformanceRule(
      "DIFF-01", .required,
      title: "seeded random scripts give the reference model's histories",
      intent: "Hand-written scenarios try the combinations someone thought of. Random scripts of"
        + " observe, cancel, release, set and (on a completable backend) complete, with"
        + " observers that make any of those operations, up to three in a row, from their value"
        + " callbacks, their replay and their completion handlers (cancelling or releasing any"
        + " observer, registered before or after them), and asynchronous backends given their"
        + " turns only now and then, find the ones nobody did. Further scripts have a second"
        + " subject whose observers' callbacks write the first, and back, and, on a backend"
        + " compared with the model exactly, two properties of one of the backend's own"
        + " objects, with observers of its will-change signal; the seed reproduces a failure."
    ) { context in
      let plan = ScriptPlan(context)
      let scripts = context.configuration.scripts(Self.scripts)
      // Two-subject scripts wherever nested writes fit the bound: a callback's write to the
      // other subject nests writes two deep and more.
      let pairs = plan.reactions.writes
      let pairScripts = pairs ? context.configuration.scripts(Self.twoSubjectScripts) : 0
      // Aggregate scripts where, besides, the backend has objects of two properties that read.
      let aggregate = pairs && plan.exact ? AggregatePlan(context) : nil
      let aggregateScripts =
        aggregate != nil ? context.configuration.scripts(Self.aggregateScripts) : 0
      let total = scripts + pairScripts + aggregateScripts
      var verdict = Verdict()
      for index in 1...total {
        let twoSubjects = index > scripts
        let overObject = index > scripts + pairScripts
        var reactions = plan.reactions
        reactions.writesOther = twoSubjects
        // The delivery properties do not tell which subject a completion is of.
        if twoSubjects && !plan.exact { reactions.completes = false }
        if overObject {
          reactions.observesObject = aggregate?.signals == true
          // A property callback names its write by value (the signal's check).
          reactions.uniqueValues = true
        }
        let seed = UInt64(index) &* 0x2545_F491_4F6C_DD1D
        let steps = DifferentialScript.steps(
          seed: seed, length: stepsPerScript, reactions: reactions)
        let failure =
          overObject
          ? plan.aggregateFailure(of: steps, on: context)
          : plan.failure(of: steps, on: context, twoSubjects: twoSubjects)
        if let failure {
          verdict.expect(
            false,
            "seed \(seed) (script \(index) of \(total)"
              + (overObject
                ? ", over properties A and B of one object"
                  + (reactions.observesObject ? " and its will-change signal" : "")
                : twoSubjects ? ", over two subjects A and B" : "") + "): " + failure.action,
            expected: failure.expected, observed: failure.observed)
          break
        }
      }
      verdict.note(
        "\(scripts) scripts of \(stepsPerScript) steps, "
          + (plan.exact
            ? "compared with the reference model"
              + (plan.ordered ? "" : " following the backend's observer order")
              + (pairs
                ? ", then \(pairScripts) over two subjects whose callbacks write each other"
                : "")
              + (aggregate.map {
                ", then \(aggregateScripts) over two properties of one object"
                  + ($0.signals ? " and observers of its will-change signal" : "")
              } ?? "")
            : "checked against the delivery properties"
              + (plan.reactions.delivers ? ", with deliver steps" : "")
              + (pairs
                ? ", then \(pairScripts) over two subjects whose callbacks write each other,"
                  + " each subject held to its own"
                : ""))
          + "; reactions: \(plan.reactions.description)")
      return verdict.result
    },
    ConformanceRule(
      "DIFF-02", .capability, binds: .when(.has(.nestedKeyPaths)),
      title: "seeded random scripts over a nested path keep the path's history",
      intent: "The KP rules rebind from outside, one change at a time. Apps rebind from inside"
        + " the handlers: a label's handler swaps the player, observes another path, cancels"
        + " a sibling. Random scripts of rebinds, title writes, observes, cancels and releases,"
        + " made as steps and from the nested-path handlers, up to three in a row, must leave"
        + " every observer showing the path's title, with no title the path never had and no"
        + " callback without a change on its path; the seed reproduces a failure.",
      traits: [.followsNestedPath]
    ) { context in
      guard context.backend.makeAnyNestedPathFixture() != nil else {
        return .notApplicable(
          "the backend offers only Int subjects and no nested observation of its own")
      }
      let declared = context.capabilities
      let synchronous = declared.has(.synchronousDelivery)
      let nestedWrites = Self.nestedWrites(declared)
      let nestedScripts = context.configuration.scripts(Self.nestedScripts)
      var verdict = Verdict()
      for index in 1...nestedScripts {
        let seed = UInt64(index) &* 0xD1B5_4A32_D192_ED03
        let steps = NestedPathScript.steps(
          seed: seed, length: nestedStepsPerScript, nestedWrites: nestedWrites,
          nestedObserves: synchronous, delivers: !synchronous)
        guard let failure = nestedPathViolation(steps, on: context) else { continue }
        verdict.expect(
          false, "seed \(seed) (script \(index) of \(nestedScripts)): " + failure.action,
          expected: failure.expected, observed: failure.observed)
        break
      }
      verdict.note(
        "\(nestedScripts) scripts of \(nestedStepsPerScript) steps over "
          + (context.hasNativeNestedObservation
            ? "the backend's own nested observation"
            : "the backend's subjects chained with flatMapLatest")
          + "; from the handlers: "
          + (nestedWrites
            ? (declared.timing == .willSet
              ? "title writes, rebinds (outside a delivery: willSet stores after it), "
              : "rebinds and title writes, ")
            : "")
          + (synchronous ? "observes, " : "")
          + "cancels and releases of any observer, up to 3 in one callback"
          + (synchronous ? "" : "; with deliver steps"))
      return verdict.result
    },
  ]

  /// Nested-path scripts per backend (before ``ConformanceConfiguration/scriptDivisor``), and
  /// steps per script.
  static let nestedScripts = 40
  static let nestedStepsPerScript = 80

  /// Whether DIFF-02's handlers write (rebinds and titles). An asynchronous backend's handlers
  /// run on its delivery turns while the script goes on: a handler's write or observe and the
  /// script's steps would race, and the model could not order them. Its handlers cancel and
  /// release.
  static func nestedWrites(_ declared: BackendCapabilities) -> Bool {
    declared.has(.synchronousDelivery) && Reactions.nestedWritesFit(declared)
  }

  /// How DIFF-01 checks a backend's scripts, from its declaration: against the reference
  /// model's exact histories, or against the delivery properties, and with which reactions.
  struct ScriptPlan {
    /// The model's semantics for the backend.
    var semantics: ReferenceObservers.Semantics
    /// Whether the scripts complete the subject (a completable backend): as a step, from
    /// callbacks, and with reactions in completion handlers.
    var completable: Bool
    /// Whether the histories are compared with the model's exactly (a synchronous backend that
    /// delivers every value, didSet or willSet), or checked against the delivery properties.
    var exact: Bool
    /// What the observers of a script may do from their callbacks.
    var reactions: Reactions
    /// Whether the backend declares its observer order.
    var ordered: Bool

    /// The plan for the backend of `context`.
    init(_ context: RuleContext) {
      let declared = context.capabilities
      semantics = ReferenceObservers.Semantics(declared)
      let probe = context.subject(0)
      completable = declared.has(.supportsCompletion) && probe.complete != nil
      semantics.valueAfterCompletion = probe.valueAfterCompletion ?? .stored
      // The histories are the values each observer receives, never what a callback reads
      // back, so they do not depend on whether the store comes before the callbacks (didSet)
      // or after them (willSet).
      exact =
        declared.has(.synchronousDelivery) && declared.has(.deliversEveryValue)
        && (declared.timing == .didSet || declared.timing == .willSet)
      reactions =
        exact
        ? .exact(declared, completable: completable)
        : .properties(declared, completable: completable)
      ordered = declared.has(.preservesObserverOrder)
    }

    /// Where replaying `steps` on a fresh subject of the backend departs from the plan, or
    /// `nil`.
    func failure(
      of steps: [DifferentialScript.Step], on context: RuleContext, twoSubjects: Bool = false
    ) -> Failure? {
      exact
        ? DifferentialRules.exactDifference(
          steps, on: context, semantics: semantics, completable: completable,
          followingBackendOrder: !ordered, twoSubjects: twoSubjects)
        : DifferentialRules.propertyViolation(
          steps, on: context, declared: context.capabilities,
          completable: completable && !twoSubjects,
          valueAfterCompletion: semantics.valueAfterCompletion, twoSubjects: twoSubjects)
    }

    /// Where replaying aggregate `steps` on a fresh object of the backend's two-property
    /// objects departs from the model (the properties' observers) or from
    /// ``ObjectSignalHistory`` (the will-change signal), or `nil`.
    func aggregateFailure(
      of steps: [DifferentialScript.Step], on context: RuleContext
    ) -> Failure? {
      guard let backend = context.backend as? any PropertyPairBackend else { return nil }
      return DifferentialRules.exactDifference(
        steps, on: context, semantics: semantics, completable: false,
        followingBackendOrder: !ordered, twoSubjects: true, pair: backend.makePropertyPair())
    }
  }

  /// Whether DIFF-01 runs aggregate scripts on a backend, and with what: a backend compared
  /// exactly whose own objects of two properties read them (``PropertyPairFixture/readA()``).
  struct AggregatePlan {
    /// Whether the object has a will-change signal to observe.
    var signals: Bool

    /// The plan for the backend of `context`, or `nil` where it has no such objects.
    init?(_ context: RuleContext) {
      guard let backend = context.backend as? any PropertyPairBackend else { return nil }
      let probe = backend.makePropertyPair()
      guard probe.readA() != nil, probe.readB() != nil else { return nil }
      let token = probe.observeObjectWillChange {}
      token?.cancel()
      signals = token != nil
    }
  }
}

extension DifferentialRules {
  /// Where a script's replay went wrong: the steps up to there, and the two sides.
  struct Failure {
    let action: String
    let expected: String
    let observed: String
  }

  /// Replays `steps` on the backend and on the reference model and compares the callbacks and
  /// reads; with `followingBackendOrder`, the model calls a broadcast's observers in the order
  /// the backend did (whenever the backend's next callback is one the model could make). A
  /// backend that does not declare value order under reentrancy may queue or recurse: the
  /// model recurses on a nested write when the backend's next callback delivers it.
  ///
  /// - Complexity: O(*s* · *n*²) for *s* steps and *n* observers.
  static func exactDifference(
    _ steps: [DifferentialScript.Step], on context: RuleContext,
    semantics: ReferenceObservers.Semantics, completable: Bool, followingBackendOrder: Bool,
    twoSubjects: Bool = false, pair: (any PropertyPairFixture)? = nil
  ) -> Failure? {
    let actualLog = DifferentialScript.Log()
    let subject = pair.map { TestSubject(PairProperty(.a, of: $0)) } ?? context.subject(0)
    let other =
      pair.map { TestSubject(PairProperty(.b, of: $0)) }
      ?? (twoSubjects ? context.subject(Self.otherInitialValue) : nil)
    // B starts at 0 on an object of two properties.
    let otherInitialValue = pair == nil ? Self.otherInitialValue : 0
    let objectSignal = pair.map { pair in
      { (handler: @escaping () -> Void) -> AnyObservationToken? in
        RuleProgress.step()
        defer { RuleProgress.step() }
        return pair.observeObjectWillChange {
          RuleProgress.step()
          handler()
        }
      }
    }
    // What a backend reports about itself is compared too: its observer count after each step.
    let counts = subject.observerCount != nil
    DifferentialScript.run(
      steps, on: subject, other: other, objectSignal: objectSignal,
      cancelsOnRelease: semantics.cancelsOnRelease, completable: completable,
      countsObservers: counts, log: actualLog)
    let actual = actualLog.compared
    // Where the declaration leaves it open, a nested write recursed if the backend delivered
    // it before the `set` that made it returned. The model's writes come in the backend's
    // order, so the model's n-th write is the backend's n-th.
    let actualEvents = actualLog.events
    let recursed = recursedWrites(in: actualEvents)
    // A completion requested from a callback completes at once or when the delivery returns,
    // in any order: the model does what the backend did.
    let deferred = deferredCompletions(in: actualLog.events)
    /// The model's record of the script; with `sharingTrampoline`, its two subjects share one;
    /// `splitting`, it splits nested writes, following the backend.
    func modelRecord(sharingTrampoline: Bool, splitting: Bool = false) -> [DifferentialScript.Event]
    {
      let reference = ReferenceObservers(0, semantics: semantics)
      let otherReference =
        twoSubjects ? ReferenceObservers(otherInitialValue, semantics: semantics) : nil
      if sharingTrampoline {
        let trampoline = ReferenceObservers.SharedTrampoline()
        reference.sharedTrampoline = trampoline
        otherReference?.sharedTrampoline = trampoline
      }
      let expectedLog = DifferentialScript.Log()
      /// With split nested writes, the delivery the backend made next, if the model may make
      /// it now: where no delivery is under way, the backend's next callback; inside one (a
      /// nested write, a replay), only at the same point of the whole record, so that a
      /// delivery the backend made after a cancel or a `set` returned is not made before it.
      func splitDelivery(_ candidates: [(label: Int, value: Int)], mustDeliver: Bool) -> Int? {
        let next: DifferentialScript.Event
        if mustDeliver {
          let index = expectedLog.comparedCount
          guard index < actual.count else { return nil }
          next = actual[index]
        } else {
          let sofar = expectedLog.events
          guard sofar.count < actualEvents.count,
            actualEvents[..<sofar.count].elementsEqual(sofar)
          else { return nil }
          next = actualEvents[sofar.count]
        }
        guard case .callback(let id, let value) = next else { return nil }
        return candidates.firstIndex { $0.label == id && $0.value == value }
      }
      let followBackend: ([Int]) -> Int = { candidates in
        let next = expectedLog.comparedCount
        guard next < actual.count else { return candidates[0] }
        switch actual[next] {
        case .callback(let id, _) where candidates.contains(id),
          .completion(let id) where candidates.contains(id):
          return id
        default: return candidates[0]
        }
      }
      for each in [reference, otherReference].compactMap({ $0 }) {
        each.nestedWriteRecurses = { _ in recursed.contains(expectedLog.writeCount) }
        each.completionDeferred = { deferred.contains(expectedLog.completeCount) }
        // An observer subscribed during a broadcast is replayed the stored value or the one
        // under delivery: the model gives what the backend's replay gave.
        each.replaysValueInFlight = { label, value in
          let next = expectedLog.comparedCount
          return next < actual.count && actual[next] == .callback(observer: label, value: value)
        }
        each.completionOrder = followBackend
        if followingBackendOrder { each.order = followBackend }
        if splitting {
          each.splitDelivery = { candidates, mustDeliver in
            splitDelivery(candidates, mustDeliver: mustDeliver)
          }
          each.splitKeepsObserverOrder = !followingBackendOrder
        }
      }
      DifferentialScript.run(
        steps, on: TestSubject(reference), other: otherReference.map { TestSubject($0) },
        cancelsOnRelease: semantics.cancelsOnRelease, completable: completable,
        countsObservers: counts, log: expectedLog,
        willObserve: { id, observesOther in
          (observesOther ? otherReference ?? reference : reference).nextLabel = id
        })
      return expectedLog.compared
    }
    // Where the contract leaves a choice the model cannot read off the backend's history, it
    // is tried each way, and a FAIL is a step no branch explains, shown against the branch that
    // explains most of the history. A write to the other subject made from a callback is
    // delivered at once or waits for the outermost delivery (a trampoline A and B share). A
    // backend that delivers every value without declaring value order may split a nested
    // write: at once to the observers the outer write reached, later to the rest (split, each
    // subject is on its own: subjects that share one trampoline queue).
    var branches: [ModelBranch] = [.whole]
    if twoSubjects { branches.append(.sharedTrampoline) }
    if !semantics.queuesNestedWrites { branches.append(.split) }
    var best: (branch: ModelBranch, record: [DifferentialScript.Event], differsAt: Int)?
    for branch in branches {
      let record = modelRecord(
        sharingTrampoline: branch == .sharedTrampoline, splitting: branch == .split)
      guard actual != record else {
        return pair.flatMap { _ in signalFailure(steps, actualLog.events) }
      }
      let differsAt = DifferentialScript.firstDifference(actual, record).0
      if differsAt > best?.differsAt ?? -1 { best = (branch, record, differsAt) }
    }
    let expected = best!.record
    let sharing = best!.branch == .sharedTrampoline
    let splitting = best!.branch == .split
    let (at, backend, model) = DifferentialScript.firstDifference(actual, expected)
    let sentence = brokenSentence(
      events: actualLog.events, at: at, expectedEvents: expected, declared: context.capabilities)
    return Failure(
      action: DifferentialScript.describe(steps, upTo: at, in: actual),
      expected: "the reference model's \(model) at event \(at)"
        + (followingBackendOrder ? " (the model following the backend's observer order)" : "")
        + (splitting
          ? " (the model splitting nested writes: each observer gets every write made while it"
            + " is registered, in the order made, at once or later; whole, it differs earlier)"
          : "")
        + (twoSubjects
          ? sharing
            ? " (A and B sharing one trampoline: a write to either waits for the outermost"
              + " delivery of both; delivered at once, it differs earlier)"
            : " (a write to a subject that is not delivering delivered at once; with A and B"
              + " sharing one trampoline, it differs earlier)"
          : "")
        + "; the contract: \(sentence)",
      observed: backend)
  }

  /// The ways DIFF-01 runs its model where the contract leaves a choice the history does not
  /// show step by step.
  enum ModelBranch {
    /// Each subject on its own, a nested write followed as a whole (recursion or queue).
    case whole
    /// Two subjects sharing one trampoline.
    case sharedTrampoline
    /// Nested writes split (``ReferenceObservers/splitDelivery``).
    case split
  }

  /// Where the will-change signal of an aggregate script's record breaks
  /// ``ObjectSignalHistory``, or `nil`.
  static func signalFailure(
    _ steps: [DifferentialScript.Step], _ events: [DifferentialScript.Event]
  ) -> Failure? {
    let objectObservers = Set(
      steps.compactMap { step -> Int? in
        if case .observeObject(let id, _, _) = step { return id }
        return nil
      })
    guard !objectObservers.isEmpty,
      let violation = ObjectSignalHistory.violation(in: events, objectObservers: objectObservers)
    else { return nil }
    let shown = events.prefix(violation.index + 1).suffix(8).map(\.description)
    return Failure(
      action: DifferentialScript.describe(steps, upTo: violation.index, in: events),
      expected: violation.expected + "; the contract: \(violation.sentence)",
      observed: violation.observed + " (last events: \(shown.joined(separator: ", ")))")
  }

  /// B's value before a two-subject script's first write: none of the values a script writes.
  static let otherInitialValue = 3100

  /// The writes of `events` (numbered from 1 in the order made) that the backend delivered
  /// before their `set` returned: a value delivered while its write is still on the stack of
  /// writes under way recursed; one delivered after the write returned was queued.
  ///
  /// - Complexity: O(*e* · *d*) for *e* events and writes nested *d* deep.
  static func recursedWrites(in events: [DifferentialScript.Event]) -> Set<Int> {
    var recursed: Set<Int> = []
    var underWay: [(number: Int, value: Int)] = []
    var writes = 0
    for event in events {
      switch event {
      case .write(let value), .writeOther(let value):
        writes += 1
        underWay.append((writes, value))
      case .writeReturned:
        _ = underWay.popLast()
      case .callback(_, let value):
        if let write = underWay.last(where: { $0.value == value }) { recursed.insert(write.number) }
      default: break
      }
    }
    return recursed
  }

  /// The completions of `events` (numbered from 1 in the order requested) during which the
  /// backend ran no completion handler: it completed its observers later, when the delivery
  /// that requested it returned (or had no live observer to complete, where both agree).
  ///
  /// - Complexity: O(*e*) for *e* events.
  static func deferredCompletions(in events: [DifferentialScript.Event]) -> Set<Int> {
    var deferred: Set<Int> = []
    // The completions under way, innermost last: their number and whether a handler ran.
    var underWay: [(number: Int, ranHandler: Bool)] = []
    var completions = 0
    for event in events {
      switch event {
      case .completeStarted:
        completions += 1
        underWay.append((completions, false))
      case .completion:
        if !underWay.isEmpty { underWay[underWay.count - 1].ranHandler = true }
      case .completeReturned:
        if let finished = underWay.popLast(), !finished.ranHandler {
          deferred.insert(finished.number)
        }
      default: break
      }
    }
    return deferred
  }

  /// Replays a nested-path script on a fresh fixture of the backend, checking
  /// ``NestedPathHistory``'s properties as the events arrive and at rest.
  static func nestedPathViolation(
    _ steps: [NestedPathScript.Step], on context: RuleContext
  ) -> Failure? {
    guard let fixture = context.backend.makeAnyNestedPathFixture() else { return nil }
    let declared = context.capabilities
    let history = NestedPathHistory(declared)
    var failedAt: Int?
    NestedPathScript.run(
      steps, on: fixture, cancelsOnRelease: declared.has(.cancelsOnTokenDeinit),
      history: history,
      deliver: { context.settle(until: { history.isSettled }) },
      afterStep: { index in
        guard failedAt == nil else { return }
        let atRest: Bool
        if case .deliver = steps[index] { atRest = true } else { atRest = history.synchronous }
        if atRest && history.violation == nil {
          history.checkAtRest(after: "step \(index + 1) (\(steps[index]))")
        }
        if history.violation != nil { failedAt = index }
      })
    context.drain()
    guard let violation = history.violation else { return nil }
    let shown = steps.prefix((failedAt ?? steps.count - 1) + 1).map(\.description)
      .joined(separator: "; ")
    let tail = shown.count > 600 ? "…" + String(shown.suffix(600)) : shown
    return Failure(
      action: "from c0 → p0 (title-p0) on the root, c1 → p1: " + tail,
      expected: violation.expected,
      observed: violation.observed + " (last events: \(history.lastEvents(10)))")
  }

  /// Replays `steps` on the backend, giving it its turns at each `deliver` step, and checks the
  /// delivery properties as the events arrive; with `twoSubjects`, each subject's.
  static func propertyViolation(
    _ steps: [DifferentialScript.Step], on context: RuleContext, declared: BackendCapabilities,
    completable: Bool, valueAfterCompletion: ValueAfterCompletionPolicy,
    twoSubjects: Bool = false
  ) -> Failure? {
    let log = DifferentialScript.Log(
      checking: DeliveryProperties(
        declared, initialValue: 0, valueAfterCompletion: valueAfterCompletion),
      other: twoSubjects
        ? DeliveryProperties(
          declared, initialValue: otherInitialValue, valueAfterCompletion: valueAfterCompletion)
        : nil)
    DifferentialScript.run(
      steps, on: context.subject(0),
      other: twoSubjects ? context.subject(otherInitialValue) : nil,
      cancelsOnRelease: declared.has(.cancelsOnTokenDeinit),
      completable: completable, log: log,
      deliver: { context.settle(until: { log.isSettled }) })
    // Whatever the backend still had scheduled, after every observer was cancelled: none of it
    // may reach anyone.
    context.drain()
    guard let violation = log.violation else { return nil }
    let events = log.events
    let shown = events.prefix(violation.index + 1).suffix(8).map(\.description)
    return Failure(
      action: DifferentialScript.describe(steps, upTo: violation.index, in: events),
      expected: violation.expected + "; the contract: \(violation.sentence)",
      observed: violation.observed + " (last events: \(shown.joined(separator: ", ")))")
  }
}
