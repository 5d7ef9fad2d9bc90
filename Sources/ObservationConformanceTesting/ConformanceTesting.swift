public import ObservationConformance
public import ObservationCore
public import Testing

extension ConformanceRule: CustomTestStringConvertible {
  /// The rule's identifier and title, as Swift Testing lists the test case.
  public var testDescription: String { "\(id) \(title)" }
}

/// Runs `rule` against `backend` and records a Swift Testing issue at the caller's source
/// location if the backend fails it.
///
/// Use it with `@Test(arguments: ConformanceSuite.rules)` so that every rule is its own test
/// case:
///
/// ```swift
/// @Test(arguments: ConformanceSuite.rules)
/// func conforms(_ rule: ConformanceRule) {
///   checkConformance(of: MyBackend(), to: rule)
/// }
/// ```
///
/// Probes, not-applicable and untested outcomes are not failures; they are attached to the
/// test as comments only when they fail to match a pinned expectation (see
/// ``expectOutcome(of:for:is:configuration:sourceLocation:)``).
///
/// - Returns: the outcome, for further assertions.
@discardableResult
public func checkConformance<Backend: ObservationBackend>(
  of backend: Backend, to rule: ConformanceRule,
  configuration: ConformanceConfiguration = .standard,
  sourceLocation: SourceLocation = #_sourceLocation
) -> RuleOutcome {
  let outcome = ConformanceSuite.run(rule, on: backend, configuration: configuration)
  for message in outcome.failureMessages(rule: rule.id, backend: backend.name) {
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  }
  return outcome
}

/// Runs `rule` against `backend` and records an issue unless its outcome is `expected`.
///
/// Pins the outcomes of backends built on someone else's library, where a failure is a finding
/// to keep visible rather than a bug to fix: any change, in either direction, is reported.
@discardableResult
public func expectOutcome<Backend: ObservationBackend>(
  of backend: Backend, for rule: ConformanceRule, is expected: RuleOutcome.Kind,
  configuration: ConformanceConfiguration = .standard,
  sourceLocation: SourceLocation = #_sourceLocation
) -> RuleOutcome {
  let outcome = ConformanceSuite.run(rule, on: backend, configuration: configuration)
  if outcome.kind != expected {
    Issue.record(
      Comment(
        rawValue: "\(rule.id) on backend \(backend.name): pinned outcome \(expected.rawValue),"
          + " got \(outcome.kind.rawValue): \(outcome.details)"),
      sourceLocation: sourceLocation)
  }
  return outcome
}
