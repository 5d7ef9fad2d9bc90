import ObservationCore

/// How binding a rule is, in the catalogue's terms.
public enum RuleLevel: Sendable, Hashable, CustomStringConvertible {
  /// Every backend must pass.
  case required
  /// Binding when ``ConformanceRule/requirement`` holds for the backend's declaration;
  /// otherwise the rule runs as a probe (or is not applicable, when probing makes no sense).
  case capability
  /// A concurrency rule that can pass by luck: it repeats many iterations.
  case stochastic
  /// Listed in every report and never run, for the reason given.
  case untested(reason: String)

  /// `REQUIRED`, `CAP`, `STOCHASTIC` or `UNTESTED`.
  public var description: String {
    switch self {
    case .required: return "REQUIRED"
    case .capability: return "CAP"
    case .stochastic: return "STOCHASTIC"
    case .untested: return "UNTESTED"
    }
  }
}

/// A condition on a backend's declaration that decides whether a rule binds.
public indirect enum CapabilityRequirement: Sendable, Hashable, CustomStringConvertible {
  /// Always binds.
  case always
  /// Binds when the capability is declared.
  case has(Capability)
  /// Binds when the capability is not declared.
  case lacks(Capability)
  /// Binds when the declared timing is this one.
  case timing(DeliveryTiming)
  /// Binds when every requirement binds.
  case all([CapabilityRequirement])

  /// Whether the requirement holds for `capabilities`.
  public func isSatisfied(by capabilities: BackendCapabilities) -> Bool {
    switch self {
    case .always: return true
    case .has(let capability): return capabilities.has(capability)
    case .lacks(let capability): return !capabilities.has(capability)
    case .timing(let timing): return capabilities.timing == timing
    case .all(let requirements): return requirements.allSatisfy { $0.isSatisfied(by: capabilities) }
    }
  }

  /// The catalogue's notation: `CAP(replaysCurrentValue)`, `CAP(!threadSafe)`, `CAP(timing = didSet)`.
  public var description: String {
    switch self {
    case .always: return "always"
    case .has(let capability): return "CAP(\(capability.rawValue))"
    case .lacks(let capability): return "CAP(!\(capability.rawValue))"
    case .timing(let timing): return "CAP(timing = \(timing.rawValue))"
    case .all(let requirements): return requirements.map(\.description).joined(separator: " + ")
    }
  }
}

/// What a rule does when its requirement does not hold for a backend.
public enum UnmetRequirementPolicy: Sendable, Hashable {
  /// Run the check anyway and report whether the behaviour was observed; never fail.
  case probe
  /// Do not run; report not applicable with this reason (probing could crash or deadlock).
  case notApplicable(String)
}
