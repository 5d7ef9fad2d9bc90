/// One thing a rule did, what it expected and what it observed instead.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
  /// What the rule did, e.g. "3 observers, then set 1...100".
  public var action: String
  /// What the catalogue requires.
  public var expected: String
  /// What happened.
  public var observed: String

  /// Creates a finding.
  public init(action: String, expected: String, observed: String) {
    self.action = action
    self.expected = expected
    self.observed = observed
  }

  /// `did: ...; expected: ...; observed: ...`.
  public var description: String {
    "did: \(action); expected: \(expected); observed: \(observed)"
  }
}

/// The result of running one rule against one backend.
public enum RuleOutcome: Sendable, Hashable {
  /// The rule binds and the backend passed. `note` records what was measured, if anything.
  case passed(note: String?)
  /// The rule binds and the backend failed, for these reasons.
  case failed([Finding])
  /// The rule does not apply to this backend, for this reason.
  case notApplicable(String)
  /// The rule does not bind; its check ran as a probe. `observed` says whether the behaviour
  /// was seen anyway: `true` only with positive evidence of it (a rule with
  /// ``RuleTrait/showsCapability``), `false` when the probe saw it violated; `details` says
  /// what the probe saw.
  case probe(observed: Bool, details: String)
  /// The rule does not bind; its check ran as a probe and saw no violation, but a pass of this
  /// rule is no evidence of the capability (it checks for an absence, as a race or a deadlock
  /// is, or holds as well on a backend without the capability). `details` says in how many
  /// tries. It never credits the capability (META-01).
  case probeNotSeenViolated(details: String)
  /// The rule is never run, for this reason.
  case untested(String)
  /// The process running the rule died before the rule returned: killed by `signal` (a Swift
  /// trap is SIGILL or SIGTRAP, a stack overflow SIGSEGV), or, when `signal` is `nil`, it exited.
  /// `details` says how, with the last lines the process wrote to standard error; `binding`
  /// says whether the rule binds the backend (`false` for a probe). Only an isolated run
  /// (``IsolatedConformanceRunner``) reports it: in process, the crash ends the run.
  case crashed(signal: Int32?, details: String, binding: Bool)
  /// The rule made no progress for `seconds` (a deadlock, a livelock), and the process running
  /// it was killed. `binding` says whether the rule binds the backend. Only an isolated run
  /// (``IsolatedConformanceRunner``) reports it: in process, the hang stops the run.
  case timedOut(seconds: Double, binding: Bool)

  /// The short label used in matrices: `pass`, `FAIL`, `n/a`, `probe: observed`,
  /// `probe: not observed`, `probe: not seen violated`, `untested`, `crashed (signal 4)`, `timed out after 300 s`.
  public var label: String {
    switch self {
    case .passed: return "pass"
    case .failed: return "FAIL"
    case .notApplicable: return "n/a"
    case .probe(let observed, _): return observed ? "probe: observed" : "probe: not observed"
    case .probeNotSeenViolated: return "probe: not seen violated"
    case .untested: return "untested"
    case .crashed(let signal, _, _): return signal.map { "crashed (signal \($0))" } ?? "crashed"
    case .timedOut(let seconds, _): return "timed out after \(Self.formatted(seconds)) s"
    }
  }

  /// `seconds` without a fractional part when it has none: `300`, `2.5`.
  static func formatted(_ seconds: Double) -> String {
    seconds.rounded() == seconds && abs(seconds) < 1e15 ? String(Int64(seconds)) : "\(seconds)"
  }

  /// A stable kind, for pinning outcomes in tests without their prose.
  public var kind: Kind {
    switch self {
    case .passed: return .passed
    case .failed: return .failed
    case .notApplicable: return .notApplicable
    case .probe(let observed, _): return observed ? .probeObserved : .probeNotObserved
    case .probeNotSeenViolated: return .probeNotSeenViolated
    case .untested: return .untested
    case .crashed: return .crashed
    case .timedOut: return .timedOut
    }
  }

  /// Whether the outcome is a failure of a binding rule: ``failed(_:)``, or a crash or a
  /// timeout of a rule that binds. A probe that crashes is reported, not failed.
  public var isFailure: Bool {
    switch self {
    case .failed: return true
    case .crashed(_, _, let binding), .timedOut(_, let binding): return binding
    default: return false
    }
  }

  /// The outcome's prose: the note, reasons or findings.
  public var details: String {
    switch self {
    case .passed(let note): return note ?? ""
    case .failed(let findings): return findings.map(\.description).joined(separator: " | ")
    case .notApplicable(let reason), .untested(let reason): return reason
    case .probe(_, let details), .probeNotSeenViolated(let details): return details
    case .crashed(_, let details, _): return details
    case .timedOut(let seconds, _):
      return "no progress for \(Self.formatted(seconds)) s, so the process running the rule was"
        + " killed"
    }
  }

  /// The kind of an outcome, without its prose.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// ``RuleOutcome/passed(note:)``.
    case passed = "pass"
    /// ``RuleOutcome/failed(_:)``.
    case failed = "fail"
    /// ``RuleOutcome/notApplicable(_:)``.
    case notApplicable = "n/a"
    /// ``RuleOutcome/probe(observed:details:)`` with `observed == true`.
    case probeObserved = "probe-observed"
    /// ``RuleOutcome/probe(observed:details:)`` with `observed == false`.
    case probeNotObserved = "probe-not-observed"
    /// ``RuleOutcome/probeNotSeenViolated(details:)``.
    case probeNotSeenViolated = "probe-not-seen-violated"
    /// ``RuleOutcome/untested(_:)``.
    case untested = "untested"
    /// ``RuleOutcome/crashed(signal:details:binding:)``.
    case crashed = "crashed"
    /// ``RuleOutcome/timedOut(seconds:binding:)``.
    case timedOut = "timed-out"

    /// Whether the rule ran as a probe: observed, not observed or not seen violated.
    public var isProbe: Bool {
      [.probeObserved, .probeNotObserved, .probeNotSeenViolated].contains(self)
    }
  }
}

extension RuleOutcome {
  /// One message per finding, naming the rule, the backend and what was observed:
  /// `CAN-05 failed on backend linked-list: did: ...; expected: ...; observed: ...`; for a
  /// binding rule that crashed or timed out, one message saying so:
  /// `REE-02 crashed (signal 4) on backend my-backend: ...`.
  /// Empty unless ``isFailure``.
  public func failureMessages(rule: String, backend: String) -> [String] {
    guard isFailure else { return [] }
    guard case .failed(let findings) = self else {
      return ["\(rule) \(label) on backend \(backend): \(details)"]
    }
    return findings.map { "\(rule) failed on backend \(backend): \($0)" }
  }
}
