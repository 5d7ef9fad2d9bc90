/// What one rule of the conformance suite did on one backend, as the matrix's `outcome` column
/// says it: the suite's outcome kinds (`RuleOutcome.Kind` in `ObservationConformance`), by the
/// same words.
public enum ConformanceOutcome: String, Sendable, Hashable, CaseIterable {
  /// The rule binds, was exercised, and held.
  case passed = "pass"
  /// The rule binds and the backend broke it.
  case failed = "fail"
  /// The rule does not apply to the backend (the reason is in the row's details).
  case notApplicable = "n/a"
  /// A probe of an undeclared capability saw the backend have it.
  case probeObserved = "probe-observed"
  /// A probe of an undeclared capability saw the backend lack it.
  case probeNotObserved = "probe-not-observed"
  /// A probe saw no violation in its tries, which is no evidence of the capability.
  case probeNotSeenViolated = "probe-not-seen-violated"
  /// The rule was not run (the reason is in the row's details).
  case untested = "untested"
  /// The rule's child process ended on a signal.
  case crashed = "crashed"
  /// The rule's child process was stopped after its time limit or a stall.
  case timedOut = "timed-out"

  /// Whether the rule ran as a probe: observed, not observed or not seen violated.
  public var isProbe: Bool {
    [.probeObserved, .probeNotObserved, .probeNotSeenViolated].contains(self)
  }
}
