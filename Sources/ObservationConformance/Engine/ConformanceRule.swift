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
  /// Whether the rule writes from inside a callback: not applicable to a backend that declares
  /// nested writes unsupported (`maxReentrancyDepth` `.bounded(0)`).
  public let nestsWrites: Bool
  /// Whether the rule passes by trapping: run in a child process, its check performs a misuse
  /// the backend declares to trap, and a process stopped by a trap signal is its pass (ERR-02).
  public let expectsTrap: Bool
  /// Whether the rule needs the outcomes of the other rules (META and ERASE-01 rules).
  internal let isSuiteLevel: Bool
  /// The catalogue's wording of the level, where the requirement alone cannot say it.
  internal let levelText: String?
  internal let check: @Sendable (RuleContext) -> CheckResult

  internal init(
    _ id: RuleID, _ level: RuleLevel, requires requirement: CapabilityRequirement = .always,
    whenUnmet: UnmetRequirementPolicy = .probe, title: String, levelText: String? = nil,
    intent: String, expectsTrap: Bool = false, nestsWrites: Bool = false,
    isSuiteLevel: Bool = false,
    check: @escaping @Sendable (RuleContext) -> CheckResult
  ) {
    precondition(id.group != nil, "\(id) names no group of the catalogue")
    self.id = id
    self.level = level
    self.requirement = requirement
    self.whenUnmet = whenUnmet
    self.title = title
    self.intent = intent
    self.nestsWrites = nestsWrites
    self.expectsTrap = expectsTrap
    self.isSuiteLevel = isSuiteLevel
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
