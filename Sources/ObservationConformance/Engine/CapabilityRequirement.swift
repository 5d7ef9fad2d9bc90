import ObservationCore

/// A condition on a backend's declaration that decides whether a rule binds
/// (``RuleBinding/when(_:otherwise:)``).
public indirect enum CapabilityRequirement: Sendable, Hashable, CustomStringConvertible {
  /// Always holds.
  case always
  /// Holds when the capability is declared.
  case has(Capability)
  /// Holds when the capability is not declared.
  case lacks(Capability)
  /// Holds when the declared timing is this one.
  case timing(DeliveryTiming)
  /// Holds when every requirement holds.
  case all([CapabilityRequirement])

  /// Whether the requirement holds for `capabilities`.
  ///
  /// - Complexity: O(*n*) in the number of requirements it is made of.
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

  /// Whether the requirement names `capability`.
  func mentions(_ capability: Capability) -> Bool {
    switch self {
    case .always, .timing: return false
    case .has(let named), .lacks(let named): return named == capability
    case .all(let requirements): return requirements.contains { $0.mentions(capability) }
    }
  }
}
