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
  public static let version = "1.0.0"

  /// Every rule of the catalogue, in catalogue order, including untested ones.
  public static let rules: [ConformanceRule] =
    RegistrationRules.all + DeliveryRules.all + OrderRules.all + TimingRules.all
    + CancellationRules.all + SubscriptionRules.all + ReentrancyRules.all + MemoryRules.all
    + CompletionRules.all + EqualityRules.all + AggregationRules.all + NestedPathRules.all
    + ConcurrencyRules.all + ErrorRules.all + SequenceRules.all
    + ErasureRules.all + MetaRules.all

  /// The rule with identifier `id`, or `nil`.
  public static func rule(_ id: String) -> ConformanceRule? {
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
    for rule in rules where !rule.isSuiteLevel {
      _ = context.outcome(of: rule.id)
    }
    for rule in rules where rule.isSuiteLevel {
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

  /// Applies `rule`'s level to its check.
  static func evaluate(_ rule: ConformanceRule, in context: RuleContext) -> RuleOutcome {
    if case .untested(let reason) = rule.level { return .untested(reason) }
    if rule.id != "META-02" {
      do {
        try context.capabilities.validate()
      } catch {
        return .notApplicable("not run: the declaration is invalid (see META-02)")
      }
    }
    let binds = rule.requirement.isSatisfied(by: context.capabilities)
    if !binds, case .notApplicable(let reason) = rule.whenUnmet { return .notApplicable(reason) }
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
    case (.holds(let note), false):
      return .probe(
        observed: true, details: note ?? "the behaviour holds though it is not declared")
    case (.violated(let findings), false):
      return .probe(observed: false, details: findings.map(\.description).joined(separator: " | "))
    case (.notApplicable(let reason), _): return .notApplicable(reason)
    }
  }

  /// Every non-suite-level rule's outcome on `backend` seen through its erased handles.
  static func outcomesThroughErasure(
    of backend: any ObservationBackend, configuration: ConformanceConfiguration
  ) -> [String: RuleOutcome] {
    func run<B: ObservationBackend>(_ base: B) -> [String: RuleOutcome] {
      let context = RuleContext(backend: ErasedBackend(base), configuration: configuration)
      for rule in rules where !rule.isSuiteLevel { _ = context.outcome(of: rule.id) }
      return context.outcomes
    }
    return run(backend)
  }
}

extension RuleContext {
  /// The outcome of rule `id`, evaluated now if it has not run yet.
  func outcome(of id: String) -> RuleOutcome? {
    if let known = outcomes[id] { return known }
    guard let rule = ConformanceSuite.rule(id) else { return nil }
    let outcome = ConformanceSuite.evaluate(rule, in: self)
    outcomes[id] = outcome
    return outcome
  }
}
