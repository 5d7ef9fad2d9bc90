import ObservationCore

/// One numbered rule of the conformance catalogue.
///
/// A rule pairs an identifier and level with its *intent* (why the rule exists) and a check.
/// The engine decides from the backend's declaration whether the rule binds; if it does not,
/// the check runs as a probe or the rule is reported not applicable, but it is always reported.
public struct ConformanceRule: Sendable, Identifiable, CustomStringConvertible {
  /// The catalogue's identifier, e.g. `INIT-01`.
  public let id: RuleID
  /// How binding the rule is.
  public let level: RuleLevel
  /// When the rule binds (``CapabilityRequirement/always`` for required rules).
  public let requirement: CapabilityRequirement
  /// What to do when the requirement does not hold.
  public let whenUnmet: UnmetRequirementPolicy
  /// A one-line title.
  public let title: String
  /// Why the rule exists: the bug or surprise it protects users from.
  public let intent: String
  /// What else the engine must know to run the rule: whether it uses several threads, writes
  /// from inside a callback, reads the other rules' outcomes, ...
  public let traits: Set<RuleTrait>
  /// The catalogue's wording of the level, where the requirement alone cannot say it.
  internal let levelText: String?
  internal let check: @Sendable (RuleContext) -> CheckResult

  internal init(
    _ id: RuleID, _ level: RuleLevel, requires requirement: CapabilityRequirement = .always,
    whenUnmet: UnmetRequirementPolicy = .probe, title: String, levelText: String? = nil,
    intent: String, traits: Set<RuleTrait> = [],
    check: @escaping @Sendable (RuleContext) -> CheckResult
  ) {
    precondition(id.group != nil, "\(id) names no group of the catalogue")
    self.id = id
    self.level = level
    self.requirement = requirement
    self.whenUnmet = whenUnmet
    self.title = title
    self.intent = intent
    self.traits = traits
    self.levelText = levelText
    self.check = check
  }

  /// The rule's group: the identifier before the dash (`INIT`, `DEL`, ...).
  public var group: RuleGroup { id.group! }

  /// The level with its requirement, as the catalogue writes it.
  public var levelDescription: String {
    if let levelText { return levelText }
    switch level {
    case .required: return requirement == .always ? "REQUIRED" : "REQUIRED when \(requirement)"
    case .capability: return requirement.description
    case .stochastic: return "\(requirement) STOCHASTIC"
    case .untested: return "UNTESTED"
    }
  }

  /// `ID title`.
  public var description: String { "\(id) \(title)" }
}
