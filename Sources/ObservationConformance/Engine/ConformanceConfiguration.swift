import Foundation

/// Knobs for how hard the suite tries.
public struct ConformanceConfiguration: Sendable, Hashable {
  /// Iterations of each stochastic (THR) rule; each stops at its first failing iteration.
  ///
  /// The default, 459, is the least number of independent iterations that catches an
  /// interleaving occurring once in 100 iterations with probability at least 0.99
  /// (1 − 0.99^459 ≈ 0.9901). Fewer iterations lower that probability: 20 catch it 18% of
  /// the time.
  public var stochasticIterations: Int
  /// Fresh subjects ORD-01 checks order on.
  public var orderRounds: Int
  /// Seconds a concurrent scenario may take before it counts as a deadlock.
  public var timeout: TimeInterval
  /// Whether the rules run in a child process that may die: then ERR-02 performs the misuse
  /// a backend declares to trap (a trap ends the child, and the parent reports the pass).
  /// `false` in-process, where a trap would end the whole run.
  public var isolated = false

  /// Creates a configuration.
  public init(
    stochasticIterations: Int = Self.iterationsForOnePercentInterleavings, orderRounds: Int = 5,
    timeout: TimeInterval = 10
  ) {
    self.stochasticIterations = stochasticIterations
    self.orderRounds = orderRounds
    self.timeout = timeout
  }

  /// Iterations that catch a one-in-a-hundred interleaving with probability ≥ 0.99: the
  /// least n with 1 − 0.99ⁿ ≥ 0.99.
  public static let iterationsForOnePercentInterleavings = 459

  /// Iterations of a THR rule that probes a backend not declaring `threadSafe`: 50. Such a
  /// backend usually breaks within a few; what the probe reports is what this short run saw.
  public static let concurrencyProbeIterations = 50

  /// The default: 459 stochastic iterations, 5 order rounds, 10 s timeout.
  public static let standard = ConformanceConfiguration()
}
