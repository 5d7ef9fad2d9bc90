/// Where a sweep says how far it has got: once per cell, or per process in the later rounds
/// of a timed sweep. The tool draws it (a bar on a terminal, a line per tenth of the cells
/// elsewhere); the harness never writes to the terminal itself.
package protocol SweepProgressReporting {
  /// Counts one step done, named `label`, with `remainingSeconds` left as the sweep estimates
  /// it (`nil`: not known yet).
  mutating func advance(_ label: String, remainingSeconds: Double?)
}

/// Makes the progress of a stretch of `total` steps: the sweep's first round, or a later one.
package typealias SweepProgressFactory = (_ total: Int) -> any SweepProgressReporting
