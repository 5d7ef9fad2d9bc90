import ObservationCore

/// One numbered rule of the conformance catalogue.
///
/// A rule pairs an identifier with its *intent* (why the rule exists) and a check. Its
/// ``binding`` says which backends it binds, from their declaration; on any other, the check
/// runs as a probe or the rule is reported not applicable, but it is always reported. Its
/// ``traits`` say what else the engine must know to run it.
public struct ConformanceRule: Sendable, Identifiable, CustomStringConvertible {
  /// The catalogue's identifier, e.g. `INIT-01`.
  public let id: RuleID
  /// Which backends the rule binds, and what it does on the others.
  public let binding: RuleBinding
  /// What else the engine must know to run the rule: whether it uses several threads, writes
  /// from inside a callback, reads the other rules' outcomes, ...
  public let traits: Set<RuleTrait>
  /// A one-line title.
  public let title: String
  /// Why the rule exists: the bug or surprise it protects users from.
  public let intent: String
  /// How the catalogue words the level (``levelDescription``).
  internal let level: RuleLevel
  internal let check: @Sendable (RuleContext) -> CheckResult

  internal init(
    _ id: RuleID, _ level: RuleLevel, binds binding: RuleBinding = .always, title: String,
    intent: String, traits: Set<RuleTrait> = [],
    check: @escaping @Sendable (RuleContext) -> CheckResult
  ) {
    precondition(id.group != nil, "\(id) names no group of the catalogue")
    if case .capability = level, case .always = binding {
      preconditionFailure("\(id) checks a capability but binds every backend")
    }
    precondition(
      !traits.contains(.stochastic) || traits.contains(.concurrent),
      "\(id) is stochastic but not concurrent")
    self.id = id
    self.level = level
    self.binding = binding
    self.title = title
    self.intent = intent
    self.traits = traits
    self.check = check
  }

  /// The rule's group: the identifier before the dash (`INIT`, `DEL`, ...).
  public var group: RuleGroup { id.group! }

  /// The level as the catalogue writes it: `REQUIRED`, `REQUIRED when CAP(…)`, `CAP(…)`,
  /// `UNTESTED`, followed by `STOCHASTIC` for a ``RuleTrait/stochastic`` rule.
  public var levelDescription: String {
    let words: String
    switch (level, binding) {
    case (.worded(let catalogue), _): words = catalogue
    case (_, .never): words = "UNTESTED"
    case (_, .always): words = "REQUIRED"
    case (.required, .when(let requirement, _)): words = "REQUIRED when \(requirement)"
    case (.capability, .when(let requirement, _)): words = requirement.description
    }
    return traits.contains(.stochastic) ? words + " STOCHASTIC" : words
  }

  /// Whether the rule binds a backend declaring `capabilities` (see ``RuleBinding``).
  func binds(_ capabilities: BackendCapabilities) -> Bool { binding.binds(capabilities) }

  /// `ID title`.
  public var description: String { "\(id) \(title)" }
}
