/// One workload as a driver runs it: the scenario, its variant, and its size.
///
/// It is what ``Drivers/run(_:on:probe:scale:)`` takes, so that the harness and the benchmark
/// suites name a cell's work with one value rather than a list of positional parameters.
///
/// ```swift
/// let cancel = WorkloadCase(.cancel, pattern: .random, n: 1024, seed: 0x5EED)
/// let sample = Drivers.run(cancel, on: LinkedListStrategy(), probe: MemoryProbe())
/// ```
public struct WorkloadCase: Sendable, Hashable {
  /// The scenario.
  public var workload: Workload
  /// Its variant: one of the workload's ``Workload/patterns``.
  public var pattern: WorkloadPattern
  /// The number of observers.
  public var n: Int
  /// The depth of the observed path, for a workload that ``Workload/hasDepth``; 0 otherwise.
  public var depth: Int
  /// The seed of whatever the workload draws at random (the `random` cancellation order).
  public var seed: UInt64
  /// The threads that use the subject at once, for a workload that ``Workload/isContended``;
  /// 1 otherwise.
  public var threads: Int

  /// The case of `workload` in `pattern` with `n` observers, a path of `depth`, `seed` and
  /// `threads` threads.
  @inlinable
  public init(
    _ workload: Workload, pattern: WorkloadPattern = .single, n: Int, depth: Int = 0,
    seed: UInt64 = 0, threads: Int = 1
  ) {
    self.workload = workload
    self.pattern = pattern
    self.n = n
    self.depth = depth
    self.seed = seed
    self.threads = threads
  }
}
