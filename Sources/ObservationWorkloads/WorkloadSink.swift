/// What every measured observer does: a small amount of work the optimizer cannot remove, and
/// the bookkeeping that lets each cell check itself.
public final class WorkloadSink {
  // Unchecked exclusivity: the harness measures delivery, not the runtime's access checks,
  // and nothing here is accessed reentrantly.
  /// Sum of every value delivered.
  @exclusivity(unchecked) public var sum = 0
  /// Number of deliveries.
  @exclusivity(unchecked) public var deliveries = 0

  /// Creates an empty sink.
  @inlinable
  public init() {}

  /// Records one delivery of `value`.
  @inlinable
  @inline(__always)
  public func receive(_ value: Int) {
    sum &+= value
    deliveries &+= 1
  }

  /// Forgets everything recorded.
  @inlinable
  public func reset() {
    sum = 0
    deliveries = 0
  }
}
