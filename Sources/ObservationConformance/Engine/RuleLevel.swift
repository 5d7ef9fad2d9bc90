/// How the catalogue words a rule's level, beside its binding (which is all the engine reads):
/// what ``ConformanceRule/levelDescription`` says.
enum RuleLevel: Sendable, Hashable {
  /// Required of every backend the binding covers: `REQUIRED`, or `REQUIRED when CAP(…)`.
  case required
  /// A check of the capabilities the binding names: `CAP(…)`.
  case capability
  /// The catalogue's own words, where what the rule expects depends on something its binding
  /// does not name: which of two behaviours the declaration chooses, which the check reads
  /// (`CAP(synchronousDelivery) / CAP(!synchronousDelivery)`), or a feature no capability
  /// declares, which the check looks for (`CAP where the backend can fail`).
  case worded(String)
}
