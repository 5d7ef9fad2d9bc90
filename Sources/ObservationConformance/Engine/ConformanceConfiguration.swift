import Foundation

/// Knobs for how hard the suite tries.
public struct ConformanceConfiguration: Sendable, Hashable {
  /// Iterations of each stochastic (THR) rule.
  public var stochasticIterations: Int
  /// Fresh subjects ORD-01 checks order on.
  public var orderRounds: Int
  /// Seconds a concurrent scenario may take before it counts as a deadlock.
  public var timeout: TimeInterval

  /// Creates a configuration.
  public init(stochasticIterations: Int = 20, orderRounds: Int = 5, timeout: TimeInterval = 10) {
    self.stochasticIterations = stochasticIterations
    self.orderRounds = orderRounds
    self.timeout = timeout
  }

  /// The default: 20 stochastic iterations, 5 order rounds, 10 s timeout.
  public static let standard = ConformanceConfiguration()
}
