/// The region of a repetition that is measured: what happens between ``start()`` and
/// ``stop(operations:)``, timed with ``Stopwatch`` and counted with a ``MemoryProbe``.
///
/// Every driver brackets exactly its timed loop with one, and so do the reference loops; the
/// probe's region hooks let an outside meter (callgrind's client requests, a benchmark
/// framework's counters) measure that same region.
public struct TimedRegion {
  @usableFromInline let probe: MemoryProbe
  @usableFromInline var startTime: UInt64 = 0
  @usableFromInline var startCounters: MemoryProbe.Counters?

  /// Creates a timed region reading memory through `probe`.
  @inlinable
  public init(probe: MemoryProbe) { self.probe = probe }

  /// Reads the counters, starts the probe's outside meter if it has one, then reads the clock.
  @inlinable
  public mutating func start() {
    startCounters = probe.read()
    probe.regionWillStart?()
    startTime = Stopwatch.now()
  }

  /// Reads the clock, stops the probe's outside meter if it has one, then reads the counters;
  /// returns the sample.
  @inlinable
  public func stop(operations: Int) -> Sample {
    let end = Stopwatch.now()
    probe.regionDidEnd?()
    let counters = probe.read()
    var sample = Sample(nanoseconds: end &- startTime, operations: operations)
    if let before = startCounters, let after = counters {
      sample.allocations = after.allocations &- before.allocations
      sample.allocatedBytes = after.allocatedBytes &- before.allocatedBytes
    }
    return sample
  }

  /// The live bytes now, to compute what observers retain.
  @inlinable
  public func liveBytes() -> UInt64? { probe.read()?.liveBytes }
}
