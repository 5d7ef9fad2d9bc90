/// What a cell's process reports to the sweep: JSON on its standard output.
package struct CellOutcome: Codable {
  /// Nanoseconds per operation, one per repetition (warm-up excluded).
  package var nanosecondsPerOperation: [Double] = []
  /// Operations in the timed regions of all measured repetitions, to divide a count made over
  /// them (instructions) by. Absent from outcomes of builds that predate it.
  package var measuredOperations: Int?
  /// Instructions per operation, one per process, when callgrind counted them; filled in by
  /// the sweep from callgrind's output, not by the cell process.
  package var instructionsPerOperation: [Double] = []
  /// Level-1 data cache misses per operation, one per process, with `--cache-sim`.
  package var d1MissesPerOperation: [Double] = []
  /// Last-level cache misses per operation, one per process, with `--cache-sim`.
  package var llMissesPerOperation: [Double] = []
  /// Allocations per operation in the timed region (jemalloc only).
  package var allocationsPerOperation: Double?
  /// Bytes allocated per operation in the timed region (jemalloc only).
  package var bytesPerOperation: Double?
  /// Bytes still held per observer after subscribing (jemalloc only).
  package var retainedBytesPerObserver: Double?
  /// For an asynchronous backend's `notify`: nanoseconds from each measured write to its last
  /// observer's callback. Absent from other cells, and from builds that predate it.
  package var latencyNanoseconds: [Double]?
  /// The first failed self-check, if any.
  package var problem: String?
  /// Whether jemalloc was the allocator, so memory columns are measured.
  package var memoryMeasured = false
  /// The version of jemalloc the cell ran on, as jemalloc reports it; absent without jemalloc,
  /// and from builds that predate it.
  package var allocatorVersion: String?
  /// Set when the cell ran out of its time budget before finishing enough repetitions.
  package var capped = false
  /// Wall-clock seconds the cell took, set-up and warm-up included.
  package var wallSeconds: Double = 0
  /// Wall-clock seconds per repetition (warm-up included), to project the next size.
  package var secondsPerRepetition: Double = 0
  /// The fraction of the full work each measured repetition did (see `WorkScale`), so that
  /// another process can be told to do the same; absent from builds that predate it.
  package var scale: Double?

  /// An outcome with nothing measured yet.
  package init() {}

  /// What the cell process prints: the callgrind counts are the sweep's to add.
  enum CodingKeys: String, CodingKey {
    case nanosecondsPerOperation, measuredOperations, allocationsPerOperation, bytesPerOperation
    case retainedBytesPerObserver, problem, memoryMeasured, capped, wallSeconds
    case secondsPerRepetition, scale, latencyNanoseconds, allocatorVersion
  }
}
