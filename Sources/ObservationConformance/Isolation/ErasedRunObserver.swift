/// What an isolated run's child process knows and wants to hear while ERASE-01 re-runs the
/// rules through the erased handles (``ConformanceSuite/outcomesThroughErasure(of:configuration:)``).
///
/// A crash or hang in one of those re-runs kills the child; the next child gets the outcomes
/// reported so far, the failed re-run's among them, in ``known``, and carries on after it.
struct ErasedRunObserver: Sendable {
  /// Outcomes through the erased handles already reported, by rule identifier.
  var known: [RuleID: RuleOutcome]
  /// Called with a rule's identifier, and whether it binds, before it runs.
  var willRun: @Sendable (RuleID, Bool) -> Void
  /// Called with a rule's identifier and outcome after it ran.
  var didRun: @Sendable (RuleID, RuleOutcome) -> Void

  /// The observer of the erased re-run on this thread, if it is a child's.
  @TaskLocal static var current: ErasedRunObserver?
}
