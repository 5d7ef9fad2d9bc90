import ObservationCore

/// ERR: errors and misuse.
enum ErrorRules {
  static let all: [ConformanceRule] = [
    ConformanceRule(
      "ERR-01", .worded("CAP where the backend can fail"),
      title: "an error terminates the stream; nothing is delivered after it",
      intent: "Streams that can fail must stop at the failure, or observers act on values"
        + " produced after the error."
    ) { _ in
      .notApplicable(
        "the contract carries values only: an ObservableValue has no failure, so no subject"
          + " made through it can fail, and there is no error to terminate on")
    },
    ConformanceRule(
      "ERR-02", .worded("REQUIRED where the backend documents traps"),
      binds: .when(
        .has(.trapsOnMisuse),
        otherwise: .notApplicable(
          "trapsOnMisuse is not declared: the backend documents no trapping precondition")),
      title: "preconditions documented as traps do trap",
      intent: "A documented trap that does not fire lets misuse corrupt state silently.",
      traits: [.showsCapability, .expectsTrap]
    ) { context in
      guard context.configuration.isolated else {
        return .notApplicable(
          "a trap can only be checked in a child process: run the suite isolated"
            + " (`observatory conformance` does by default)")
      }
      guard case .bounded(let depth) = context.capabilities.maxReentrancyDepth else {
        return .notApplicable("an unbounded backend has no nesting to misuse")
      }
      let subject = context.subject(0)
      let levels = Scenarios.nestWrites(on: subject, levels: depth + 1, context: context)
      return .violated([
        Finding(
          action: "nest writes \(depth + 1) deep, one past the declared bound \(depth)",
          expected: "the process traps", observed: "it went on (\(levels) nested writes made)")
      ])
    },
    ConformanceRule(
      "ERR-03", .capability,
      binds: .when(
        .has(.reportsMisuse),
        otherwise: .notApplicable(
          "reportsMisuse is not declared: the backend claims no misuse diagnostics")),
      title: "claimed misuse diagnostics appear",
      intent: "A backend that promises to warn about misuse (RxSwift prints a reentrancy"
        + " warning) must actually warn, where the app can see it.",
      traits: [.showsCapability]
    ) { context in
      guard case .bounded(let depth) = context.capabilities.maxReentrancyDepth else {
        return .notApplicable("an unbounded backend has no nesting to misuse")
      }
      let subject = context.subject(0)
      guard let reporting = subject.misuseReporting else {
        return .violated([
          Finding(
            action: "make a subject and look for its diagnostics",
            expected: "a subject conforming to MisuseReporting, as reportsMisuse promises",
            observed: "\(type(of: subject.lifetime)) does not conform")
        ])
      }
      var verdict = Verdict()
      let before = reporting.misuseDiagnostics.count
      let levels = Scenarios.nestWrites(on: subject, levels: depth + 1, context: context) {
        reporting.misuseDiagnostics.count > before
      }
      let reported = Array(reporting.misuseDiagnostics.dropFirst(before))
      verdict.expect(
        !reported.isEmpty,
        "nest writes \(depth + 1) deep, one past the declared bound \(depth)"
          + " (\(levels) nested writes made)",
        expected: "at least one misuse diagnostic", observed: "none")
      if let first = reported.first { verdict.note("diagnostic: \(first)") }
      return verdict.result
    },
  ]
}
