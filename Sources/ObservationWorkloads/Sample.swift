/// One measured repetition of a workload.
public struct Sample: Sendable {
  /// Wall-clock nanoseconds of the timed region.
  public var nanoseconds: UInt64
  /// Operations in the timed region (subscriptions, deliveries, ...).
  public var operations: Int
  /// Allocation requests in the timed region, with jemalloc.
  public var allocations: UInt64?
  /// Bytes allocated in the timed region, with jemalloc.
  public var allocatedBytes: UInt64?
  /// Bytes still allocated per observer once the observers are set up, with jemalloc.
  public var retainedBytesPerObserver: Double?
  /// Why the cell's self-check failed, or `nil` if every observer got exactly what it should.
  public var problem: String?

  /// Nanoseconds per operation.
  public var nanosecondsPerOperation: Double {
    Double(nanoseconds) / Double(max(operations, 1))
  }

  /// Creates a sample.
  @inlinable
  public init(
    nanoseconds: UInt64, operations: Int, allocations: UInt64? = nil,
    allocatedBytes: UInt64? = nil, retainedBytesPerObserver: Double? = nil,
    problem: String? = nil
  ) {
    self.nanoseconds = nanoseconds
    self.operations = operations
    self.allocations = allocations
    self.allocatedBytes = allocatedBytes
    self.retainedBytesPerObserver = retainedBytesPerObserver
    self.problem = problem
  }
}

/// Measures the region between ``start()`` and ``stop(operations:)``, with memory counters.
public struct Measurement {
  @usableFromInline let probe: MemoryProbe
  @usableFromInline var startTime: UInt64 = 0
  @usableFromInline var startCounters: MemoryProbe.Counters?

  /// Creates a measurement reading memory through `probe`.
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
