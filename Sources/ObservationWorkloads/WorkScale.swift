/// How much of a workload's full amount of work one repetition does.
///
/// The full amount (``full``) is sized for a fast backend: about 262,144 deliveries per
/// repetition, or 4,096 subscriptions. A backend that spends microseconds per delivery would
/// take seconds per repetition at that size, so the harness measures one small repetition
/// first and scales the rest down to a fixed time. Per-operation figures do not depend on the
/// scale; only the number of operations averaged over does. The benchmark suites always use
/// ``full``.
public struct WorkScale: Sendable, Hashable {
  /// The fraction of the full amount, in (0, 1].
  public let fraction: Double

  /// A scale of `fraction`, clamped to (0, 1].
  @inlinable
  public init(_ fraction: Double) {
    self.fraction = min(1, max(fraction, .leastNormalMagnitude))
  }

  /// The full amount of work.
  public static let full = WorkScale(1)

  /// `count` scaled, and never below 1.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func scaled(_ count: Int) -> Int {
    max(1, Int((Double(count) * fraction).rounded()))
  }
}
