/// What a cell's process reports to the sweep: JSON on its standard output.
package struct CellOutcome: Codable {
  /// Nanoseconds per operation, one per repetition (warm-up excluded).
  var nanosecondsPerOperation: [Double] = []
  /// Operations in the timed regions of all measured repetitions, to divide a count made over
  /// them (instructions) by. Absent from outcomes of builds that predate it.
  var measuredOperations: Int?
  /// Instructions per operation, one per process, when callgrind counted them; filled in by
  /// the sweep from callgrind's output, not by the cell process.
  var instructionsPerOperation: [Double] = []
  /// Level-1 data cache misses per operation, one per process, with `--cache-sim`.
  var d1MissesPerOperation: [Double] = []
  /// Last-level cache misses per operation, one per process, with `--cache-sim`.
  var llMissesPerOperation: [Double] = []
  var allocationsPerOperation: Double?
  var bytesPerOperation: Double?
  var retainedBytesPerObserver: Double?
  /// For an asynchronous backend's `notify`: nanoseconds from each measured write to its last
  /// observer's callback. Absent from other cells, and from builds that predate it.
  var latencyNanoseconds: [Double]?
  /// The first failed self-check, if any.
  var problem: String?
  /// Whether jemalloc was the allocator, so memory columns are measured.
  var memoryMeasured = false
  /// Set when the cell ran out of its time budget before finishing enough repetitions.
  var capped = false
  /// Wall-clock seconds the cell took, set-up and warm-up included.
  var wallSeconds: Double = 0
  /// Wall-clock seconds per repetition (warm-up included), to project the next size.
  var secondsPerRepetition: Double = 0
  /// The fraction of the full work each measured repetition did (see `WorkScale`), so that
  /// another process can be told to do the same; absent from builds that predate it.
  var scale: Double?

  /// What the cell process prints: the callgrind counts are the sweep's to add.
  enum CodingKeys: String, CodingKey {
    case nanosecondsPerOperation, measuredOperations, allocationsPerOperation, bytesPerOperation
    case retainedBytesPerObserver, problem, memoryMeasured, capped, wallSeconds
    case secondsPerRepetition, scale, latencyNanoseconds
  }
}
