/// What a rule's check returns, before the engine applies the rule's binding: a pass or
/// failure where the rule binds, a probe's result where it does not.
enum CheckResult: Sendable {
  /// The behaviour holds; `note` records measurements worth reporting.
  case holds(note: String?)
  /// The behaviour does not hold, for these reasons.
  case violated([Finding])
  /// The check cannot run on this backend, for this reason.
  case notApplicable(String)
}
