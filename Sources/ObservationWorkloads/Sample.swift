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
  /// For an asynchronous backend's `notify`: nanoseconds from each write to its last
  /// observer's callback, one per write; empty otherwise.
  public var latencies: [UInt64] = []

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
