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
  /// How many times fewer observers and cycles the volume rules make (MEM-05's 100,000 observe
  /// and cancel cycles, MEM-07's 100 batches of 1,000 self-cancelling observers, SCALE-01's
  /// 1,000 and 10,000 observers): 1, the rules as titled, by default. A sanitizer's pass makes
  /// 10 times fewer: it looks for a bad access or a race on the paths a rule drives, which the
  /// first thousand cycles drive as the hundred-thousandth does, and under the address
  /// sanitizer those three rules were most of its pass. The 63, 64 and 65 observers around a
  /// word mask are never divided.
  public var volumeDivisor: Int
  /// How many times fewer seeded scripts the differential rules make (DIFF-01's 60 and
  /// DIFF-02's 40): 1, the rules as documented, by default. A sanitizer's pass makes 4 times
  /// fewer: there the scripts drive a backend's paths for the sanitizer to watch, and the fuzz
  /// targets over the reference model drive the same comparison under the address sanitizer,
  /// guided by coverage, for as long as they are let run. Under that sanitizer the two rules
  /// were half of its pass once the volume rules were divided.
  public var scriptDivisor: Int
  /// Whether the rules run in a child process that may die: then ERR-02 performs the misuse
  /// a backend declares to trap (a trap ends the child, and the parent reports the pass).
  /// `false` in-process, where a trap would end the whole run.
  public var isolated = false

  /// Creates a configuration.
  public init(
    stochasticIterations: Int = Self.iterationsForOnePercentInterleavings, orderRounds: Int = 5,
    timeout: TimeInterval = 10, volumeDivisor: Int = 1, scriptDivisor: Int = 1
  ) {
    self.stochasticIterations = stochasticIterations
    self.orderRounds = orderRounds
    self.timeout = timeout
    self.volumeDivisor = volumeDivisor
    self.scriptDivisor = scriptDivisor
  }

  /// Iterations that catch a one-in-a-hundred interleaving with probability ≥ 0.99: the
  /// least n with 1 − 0.99ⁿ ≥ 0.99.
  public static let iterationsForOnePercentInterleavings = 459

  /// Iterations of a THR rule that probes a backend not declaring `threadSafe`: 50. Such a
  /// backend usually breaks within a few; what the probe reports is what this short run saw.
  public static let concurrencyProbeIterations = 50

  /// `count` observers or cycles of a volume rule, divided by ``volumeDivisor`` (at least 1).
  ///
  /// - Complexity: O(1).
  public func volume(_ count: Int) -> Int { max(1, count / max(1, volumeDivisor)) }

  /// `count` seeded scripts of a differential rule, divided by ``scriptDivisor`` (at least 1).
  ///
  /// - Complexity: O(1).
  public func scripts(_ count: Int) -> Int { max(1, count / max(1, scriptDivisor)) }

  /// The default: 459 stochastic iterations, 5 order rounds, 10 s timeout.
  public static let standard = ConformanceConfiguration()
}
