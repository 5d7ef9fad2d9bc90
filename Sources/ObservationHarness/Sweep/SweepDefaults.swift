/// What a sweep measures when its options do not say: the observer counts of the default and
/// the quick sweep, and the path depths of the nested workload. `run`, `ab` and `list` read
/// them here.
package enum SweepDefaults {
  /// The observer counts of the default sweep, from one observer to a million.
  package static let sizes = [1, 16, 256, 1024, 4096, 65536, 1_048_576]

  /// The observer counts of the quick (smoke) sweep.
  package static let quickSizes = [1, 16, 256]

  /// The depth of a nested path like the mission's `controller?.player?.title`: the one the
  /// default sweep measures, and the one `history` follows unless told another.
  package static let nestedDepth = 3

  /// The depths of the nested workload's path in the default sweep.
  package static let depths = [nestedDepth]

  /// The threads the contended workloads measure: how cost grows from one to eight.
  package static let threads = [1, 2, 4, 8]

  /// The observer counts the contended workloads measure in the default sweep: one size, at
  /// which a write holds a backend's lock briefly, so that contention, not delivery, is what
  /// the threads add (`--sizes` measures others; 1,024 added 12% to the main job's time).
  package static let contendedSizes = [16]

  /// The observer counts of the contended workloads in the quick sweep.
  package static let quickContendedSizes = [16]

  /// The deepest path the nested workload measures.
  package static let maximumDepth = 64
}
