import ObservationReports

/// What a sweep did: every cell's result, the largest size each series finished, and how long
/// it took.
package struct SweepResult {
  /// Every plan with its result, in sweep order; `nil`: not run, its series capped.
  package var results: [(Cell, CellRunner.Result?)]
  /// The largest size each series finished, for the capped cells' reasons.
  package var largestFinished: [Cell.Series: Int]
  /// Wall-clock seconds from the first cell's start to the last one's end.
  package var wallSeconds: Double

  /// The result of a sweep that measured `results` in `wallSeconds`.
  ///
  /// - Complexity: O(1).
  package init(
    results: [(Cell, CellRunner.Result?)], largestFinished: [Cell.Series: Int],
    wallSeconds: Double
  ) {
    self.results = results
    self.largestFinished = largestFinished
    self.wallSeconds = wallSeconds
  }
}
