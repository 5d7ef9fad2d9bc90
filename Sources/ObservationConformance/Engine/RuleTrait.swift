/// A fact about a rule that changes how the engine, the isolated runner or ERASE-01 treats it.
///
/// The traits sit on the rule's declaration beside its binding, as a Swift Testing `@Test`
/// carries its traits, so that the declaration alone says how the rule is run; nothing
/// recovers them from the rule's group.
public enum RuleTrait: Sendable, Hashable, CaseIterable {
  /// The rule uses subjects from several threads at once. On a backend that does not declare
  /// `threadSafe` such a rule is undefined behaviour: it is probed only in an isolated run, in
  /// a child process of its own, and not again through the erased handles.
  case concurrent
  /// The rule can pass by luck, so it repeats many iterations
  /// (``ConformanceConfiguration/stochasticIterations``); its level ends in `STOCHASTIC`. Every
  /// stochastic rule is also ``concurrent``.
  case stochastic
  /// The rule reads the outcomes of the other rules (ERASE-01, META-01, META-04): it runs after
  /// them, and not through the erased handles.
  case suiteLevel
  /// The rule writes from inside a callback: not applicable to a backend that declares nested
  /// writes unsupported (`maxReentrancyDepth` `.bounded(0)`).
  case nestsWrites
  /// The rule passes by trapping: run in a child process, its check performs a misuse the
  /// backend declares to trap, and a process stopped by a trap signal is its pass (ERR-02).
  case expectsTrap
  /// The rule observes an object of several properties (AGG), which an erased property handle
  /// does not carry: ERASE-01 does not compare it.
  case objectLevel
  /// The rule follows a nested key path (KP): through the backend's own nested observation
  /// where it has one, which erased handles do not carry (ERASE-01 then does not compare it),
  /// and otherwise through the backend's subjects chained with `flatMapLatest`.
  case followsNestedPath
  /// Run as a probe, a pass is positive evidence of the capability the rule's binding names:
  /// the rule's scenario makes that behaviour happen, and a backend without it fails (a replay
  /// seen before `observe` returns, 64 observers called in registration order, a cancel on the
  /// token's release). A probe of a rule without this trait that sees no violation reports
  /// ``RuleOutcome/probeNotSeenViolated(details:)``, which never credits the capability: a
  /// stochastic rule that saw no race in its tries, or a rule that holds as well on a backend
  /// without the capability (convergence holds without a replay when broadcasts reach every
  /// observer).
  case showsCapability

  /// The trait's name in the conformance matrix's `traits` column: the case's name.
  public var name: String {
    switch self {
    case .concurrent: "concurrent"
    case .stochastic: "stochastic"
    case .suiteLevel: "suiteLevel"
    case .nestsWrites: "nestsWrites"
    case .expectsTrap: "expectsTrap"
    case .objectLevel: "objectLevel"
    case .followsNestedPath: "followsNestedPath"
    case .showsCapability: "showsCapability"
    }
  }
}
