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
/// It runs the rule with every rule it reads (ERASE-01 runs the whole suite through the erased
/// handles; each META rule reads the others), so checking every rule this way runs those again
/// for each: to check them all, run the suite once and check each rule in its report with
/// ``checkConformance(of:in:sourceLocation:)``. Use this form for a few rules, or in one test
/// function per rule:
///
/// ```swift
/// @Test func cancelIsIdempotent() throws {
///   checkConformance(of: MyBackend(), to: try #require(ConformanceSuite.rule("CAN-03")))
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
  for message in outcome.failureMessages(rule: rule.id.rawValue, backend: backend.name) {
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

/// Records an issue at the caller's source location if `rule` failed, crashed or timed out in
/// `report`, and returns its outcome.
///
/// Run the suite once, share the report, and check every rule against it:
///
/// ```swift
/// enum MyBackendReport {
///   static let report = ConformanceSuite.run(MyBackend())
/// }
///
/// @Test(arguments: ConformanceSuite.rules)
/// func conforms(_ rule: ConformanceRule) {
///   checkConformance(of: rule, in: MyBackendReport.report)
/// }
/// ```
///
/// Or with a report of an isolated run (`IsolatedConformanceRunner`), so that a backend that
/// traps or hangs in one rule costs that rule, not the whole test process, and the THR rules
/// probe a backend that does not declare `threadSafe`:
///
/// ```swift
/// enum IsolatedRun {
///   // `my-backend-conformance` is an executable target of the package whose `main` calls
///   // `ConformanceChild.run(MyBackend(), request: ...)`; the test target depends on it.
///   static let report = Result {
///     try IsolatedConformanceRunner(
///       executable: IsolatedConformanceRunner.executableBuiltBesideTests(
///         named: "my-backend-conformance")
///     ).run(MyBackend())
///   }
/// }
///
/// @Test(arguments: ConformanceSuite.rules)
/// func conformsIsolated(_ rule: ConformanceRule) throws {
///   checkConformance(of: rule, in: try IsolatedRun.report.get())
/// }
/// ```
///
/// - Returns: the outcome, for further assertions; `nil` (with an issue) if the report has no
///   outcome for `rule`.
@discardableResult
public func checkConformance(
  of rule: ConformanceRule, in report: ConformanceReport,
  sourceLocation: SourceLocation = #_sourceLocation
) -> RuleOutcome? {
  guard let outcome = recordedOutcome(of: rule, in: report, sourceLocation: sourceLocation)
  else { return nil }
  for message in outcome.failureMessages(rule: rule.id.rawValue, backend: report.backendName) {
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  }
  return outcome
}

/// Records an issue at the caller's source location unless `rule`'s outcome in `report` is
/// `expected`, and returns the outcome.
///
/// The report-based form of ``expectOutcome(of:for:is:configuration:sourceLocation:)``: pin a
/// library backend's findings from one run of the whole suite (in process, or isolated with
/// `IsolatedConformanceRunner`), shared by every rule's test case.
///
/// - Returns: the outcome; `nil` (with an issue) if the report has no outcome for `rule`.
/// - Complexity: O(*r*), *r* the number of rules in the report.
@discardableResult
public func expectOutcome(
  of rule: ConformanceRule, in report: ConformanceReport, is expected: RuleOutcome.Kind,
  sourceLocation: SourceLocation = #_sourceLocation
) -> RuleOutcome? {
  guard let outcome = recordedOutcome(of: rule, in: report, sourceLocation: sourceLocation)
  else { return nil }
  if outcome.kind != expected {
    Issue.record(
      Comment(
        rawValue: "\(rule.id) on backend \(report.backendName): pinned outcome"
          + " \(expected.rawValue), got \(outcome.kind.rawValue): \(outcome.details)"),
      sourceLocation: sourceLocation)
  }
  return outcome
}

/// `rule`'s outcome in `report`, or `nil` with an issue recorded at `sourceLocation` saying the
/// report has none.
private func recordedOutcome(
  of rule: ConformanceRule, in report: ConformanceReport, sourceLocation: SourceLocation
) -> RuleOutcome? {
  guard let outcome = report.outcome(of: rule.id) else {
    Issue.record(
      Comment(rawValue: "\(rule.id): no outcome in the report on backend \(report.backendName)"),
      sourceLocation: sourceLocation)
    return nil
  }
  return outcome
}
