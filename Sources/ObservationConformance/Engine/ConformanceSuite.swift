import Foundation
import ObservationCore

/// The conformance engine: runs the catalogue's rules against a backend.
///
/// It is framework-free: every rule returns a ``RuleOutcome``, and adapters (Swift Testing in
/// `ObservationConformanceTesting`, the `observatory conformance` command) decide how to report.
///
/// ```swift
/// let report = ConformanceSuite.run(MyBackend())
/// for failure in report.failures { print(failure.rule.id, failure.outcome.details) }
/// ```
public enum ConformanceSuite {
  /// The suite's version; reports carry it so results from different suites are not compared.
  public static let version = "1.13.0"

  /// Every rule of the catalogue, in catalogue order, including untested ones.
  public static let rules: [ConformanceRule] =
    InitialValueRules.all + DeliveryRules.all + OrderRules.all + TimingRules.all
    + CancellationRules.all + SubscriptionRules.all + ReentrancyRules.all + MemoryRules.all
    + TerminationRules.all + EqualityRules.all + AggregationRules.all + KeyPathRules.all
    + ThreadRules.all + ErrorRules.all
    // Catalogue 1.1's rules on whole sequences keep the place they were added at.
    + DeliveryRules.sequenceRules + ReentrancyRules.readBackRules + ScaleRules.all
    // Suite 1.7.0's rules on scheduled work and on two subjects come after them.
    + MemoryRules.scheduledWorkRules + ReentrancyRules.otherSubjectRules
    + DifferentialRules.all + ErasureRules.all + MetaRules.all

  /// The rule with identifier `id`, or `nil`.
  public static func rule(_ id: RuleID) -> ConformanceRule? {
    rules.first { $0.id == id }
  }

  /// Runs every rule against `backend`.
  ///
  /// - Complexity: dominated by the rules that loop (100,000 cycles in MEM-05 and in REE-02 for
  ///   an unbounded backend) and by the stochastic rules; seconds per backend.
  public static func run<Backend: ObservationBackend>(
    _ backend: Backend, configuration: ConformanceConfiguration = .standard
  ) -> ConformanceReport {
    let context = RuleContext(backend: backend, configuration: configuration)
    for rule in evaluationOrder {
      _ = context.outcome(of: rule.id)
    }
    return ConformanceReport(
      backendName: backend.name, capabilities: backend.capabilities, suiteVersion: version,
      results: rules.map { ConformanceReport.Result(rule: $0, outcome: context.outcomes[$0.id]!) })
  }

  /// Runs one rule against `backend`, plus whatever rules it depends on.
  public static func run<Backend: ObservationBackend>(
    _ rule: ConformanceRule, on backend: Backend,
    configuration: ConformanceConfiguration = .standard
  ) -> RuleOutcome {
    let context = RuleContext(backend: backend, configuration: configuration)
    return context.outcome(of: rule.id)!
  }

  /// Applies `rule`'s binding to its check.
  static func evaluate(_ rule: ConformanceRule, in context: RuleContext) -> RuleOutcome {
    if case .never(let reason) = rule.binding { return .untested(reason) }
    if rule.id != .meta02 {
      do {
        try context.capabilities.validate()
      } catch {
        return .notApplicable("not run: the declaration is invalid (see META-02)")
      }
    }
    if rule.traits.contains(.nestsWrites),
      case .bounded(0) = context.capabilities.maxReentrancyDepth
    {
      return .notApplicable(
        "the backend declares nested writes unsupported (maxReentrancyDepth 0), and this rule"
          + " writes from inside a callback")
    }
    let binds = rule.binds(context.capabilities)
    if !binds, case .when(_, otherwise: .notApplicable(let reason)) = rule.binding {
      return .notApplicable(reason)
    }
    if !context.configuration.isolated && isChildProcessProbe(rule, for: context.capabilities) {
      return .notApplicable(
        "threadSafe is not declared: concurrent use is undefined behaviour; it is probed only in"
          + " an isolated run (observatory conformance), where a crash costs one child process")
    }
    context.isBinding = binds
    defer { context.isBinding = true }
    let ledger = context.ledger
    context.ledger = TokenLedger()
    let result = rule.check(context)
    context.ledger.cancelAll()
    context.ledger = ledger
    switch (result, binds) {
    case (.holds(let note), true): return .passed(note: note)
    case (.violated(let findings), true): return .failed(findings)
    case (.holds(let note), false) where rule.traits.contains(.showsCapability):
      return .probe(
        observed: true, details: note ?? "the behaviour holds though it is not declared")
    case (.holds(let note), false):
      let tries = rule.traits.contains(.stochastic) ? context.stochasticIterations : 1
      return .probeNotSeenViolated(
        details: "not seen violated in \(tries) \(tries == 1 ? "try" : "tries"); a pass of this"
          + " rule is no evidence that the backend has the behaviour"
          + (note.map { " (\($0))" } ?? ""))
    case (.violated(let findings), false):
      return .probe(observed: false, details: findings.map(\.description).joined(separator: " | "))
    case (.notApplicable(let reason), _): return .notApplicable(reason)
    }
  }

  /// Every non-suite-level rule's outcome on `backend` seen through its erased handles.
  ///
  /// In an isolated run's child process, ``ErasedRunObserver/current`` supplies the outcomes an
  /// earlier child already reported (one of them may be a crash) and hears of each rule before
  /// and after it runs, so that a crash through the erased handles is that one rule's crash.
  static func outcomesThroughErasure(
    of backend: any ObservationBackend, configuration: ConformanceConfiguration
  ) -> [RuleID: RuleOutcome] {
    let observer = ErasedRunObserver.current
    func run<B: ObservationBackend>(_ base: B) -> [RuleID: RuleOutcome] {
      let context = RuleContext(backend: ErasedBackend(base), configuration: configuration)
      for rule in rules where !rule.traits.contains(.suiteLevel) {
        if isChildProcessProbe(rule, for: context.capabilities) {
          context.outcomes[rule.id] = .notApplicable(
            "a probe of undeclared concurrency is not run again through the erased handles")
          continue
        }
        guard let observer else {
          _ = context.outcome(of: rule.id)
          continue
        }
        if let known = observer.known[rule.id] {
          context.outcomes[rule.id] = known
          continue
        }
        observer.willRun(rule.id, rule.binds(context.capabilities))
        observer.didRun(rule.id, context.outcome(of: rule.id)!)
      }
      return context.outcomes
    }
    return run(backend)
  }

  /// Whether `rule` runs on a backend declaring `capabilities` as a probe of concurrent use
  /// that only an isolated run makes (a ``RuleTrait/concurrent`` rule that probes a backend
  /// that does not declare `threadSafe`): such a probe may crash, corrupt the backend or leave
  /// threads stuck, so its child process ends after it, a crash or hang during it is its "not
  /// observed", and it is not run again through the erased handles.
  package static func isChildProcessProbe(
    _ rule: ConformanceRule, for capabilities: BackendCapabilities
  ) -> Bool {
    guard case .when(let requirement, otherwise: .probe) = rule.binding else { return false }
    return rule.traits.contains(.concurrent) && !capabilities.has(.threadSafe)
      && !requirement.isSatisfied(by: capabilities)
  }

  /// The rules in the order ``run(_:configuration:)`` evaluates them: the rules that stand
  /// alone in catalogue order, then the suite-level ones (which read the others' outcomes).
  static var evaluationOrder: [ConformanceRule] {
    rules.filter { !$0.traits.contains(.suiteLevel) }
      + rules.filter { $0.traits.contains(.suiteLevel) }
  }
}

extension RuleContext {
  /// The outcome of rule `id`, evaluated now if it has not run yet.
  func outcome(of id: RuleID) -> RuleOutcome? {
    if let known = outcomes[id] { return known }
    guard let rule = ConformanceSuite.rule(id) else { return nil }
    let outcome = ConformanceSuite.evaluate(rule, in: self)
    outcomes[id] = outcome
    return outcome
  }
}
