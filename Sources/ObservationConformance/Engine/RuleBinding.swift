import ObservationCore

/// When a rule binds a backend: what the engine reads before it runs the rule's check.
///
/// A rule that binds a backend must pass on it. A rule that does not runs as a probe, which
/// reports whether the backend shows the behaviour anyway and never fails, or is reported not
/// applicable, with why; either way every report lists it.
///
/// ```swift
/// .always                                      // REQUIRED
/// .when(.has(.replaysCurrentValue))            // CAP(replaysCurrentValue), probed elsewhere
/// .when(.has(.trapsOnMisuse), otherwise: .notApplicable("no trap is documented"))
/// ```
public enum RuleBinding: Sendable, Hashable {
  /// Binds every backend.
  case always
  /// Binds a backend whose declaration satisfies the requirement; on any other backend,
  /// `otherwise` says what the rule does.
  case when(CapabilityRequirement, otherwise: Unmet = .probe)
  /// Binds no backend and never runs: every report lists the rule as untested, for `reason`.
  case never(reason: String)

  /// What a rule does on a backend whose declaration does not satisfy its requirement.
  public enum Unmet: Sendable, Hashable {
    /// Run the check anyway and report whether the behaviour was observed; never fail.
    case probe
    /// Do not run; report not applicable, for this reason (probing could crash or deadlock).
    case notApplicable(String)
  }

  /// Whether the rule binds a backend declaring `capabilities`: it runs and its requirement,
  /// if any, holds.
  func binds(_ capabilities: BackendCapabilities) -> Bool {
    switch self {
    case .always: return true
    case .when(let requirement, _): return requirement.isSatisfied(by: capabilities)
    case .never: return false
    }
  }

  /// Whether the binding's requirement names `capability`.
  func mentions(_ capability: Capability) -> Bool {
    guard case .when(let requirement, _) = self else { return false }
    return requirement.mentions(capability)
  }
}
