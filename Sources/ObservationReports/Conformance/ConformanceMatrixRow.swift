/// One row of the conformance matrix's CSV (`Results/conformance.csv`): the outcome of one rule
/// on one backend. ``ConformanceMatrixCSV`` reads and writes such rows.
public struct ConformanceMatrixRow: Sendable, Hashable {
  /// The version of the suite that produced the row (`suite_version`).
  public let suiteVersion: String
  /// The rule's identifier, e.g. `CAN-05` (`rule`).
  public let rule: String
  /// The identifier's prefix, e.g. `CAN` (`group`).
  public let group: String
  /// The rule's level in the catalogue's wording, e.g. `CAP(replaysCurrentValue)` (`level`).
  public let level: String
  /// The rule in one line (`title`).
  public let title: String
  /// The rule's traits by their names (`traits`, space-separated: `concurrent stochastic`),
  /// so that a script asks what a rule is instead of reading its identifier; `nil` in a
  /// matrix written before the column.
  public let traits: Set<String>?
  /// The backend's name, e.g. `linked-list` (`backend`).
  public let backend: String
  /// The outcome (`outcome`).
  public let outcome: ConformanceOutcome
  /// The outcome's prose: findings, the probe's observation or a reason (`details`).
  public let details: String

  /// A row with these fields.
  public init(
    suiteVersion: String, rule: String, group: String, level: String, title: String,
    traits: Set<String>?, backend: String, outcome: ConformanceOutcome, details: String
  ) {
    self.suiteVersion = suiteVersion
    self.rule = rule
    self.group = group
    self.level = level
    self.title = title
    self.traits = traits
    self.backend = backend
    self.outcome = outcome
    self.details = details
  }
}
