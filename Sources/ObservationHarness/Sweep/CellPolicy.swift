/// The sweep's rules for how much a cell measures and when it is capped, each stated once: the
/// child process, the runner that starts it, the sweep that plans and projects, and the report
/// all ask here.
package enum CellPolicy {
  /// From this many observers on, a workload does the least work it can per repetition (one
  /// write, one subject), setting up the observers dominates, and a cell runs at most two
  /// repetitions, each in a process of its own, with no warm-up.
  package static let largeSize = 65536

  /// Fewer measured repetitions than this (or than a cell asked for, if that is less) leave the
  /// cell `capped`: its median would rest on one or two samples.
  package static let fewestRepetitions = 3

  /// The repetitions a cell of `n` observers runs when `requested` are asked for.
  ///
  /// - Complexity: O(1).
  package static func repetitions(_ requested: Int, n: Int) -> Int {
    n >= largeSize ? min(requested, 2) : requested
  }

  /// Whether a cell of `n` observers starts without a warm-up: one repetition already touches
  /// every page it needs, and a second would only spend the cell's budget.
  package static func skipsWarmUp(n: Int) -> Bool { n >= largeSize }

  /// Whether a cell that measured `measured` of the `requested` repetitions ran out of budget
  /// too early to be reported.
  package static func isCapped(measured: Int, requested: Int) -> Bool {
    measured < min(fewestRepetitions, requested)
  }

  /// The moment, in seconds after it starts, at which a cell process with `budget` seconds is
  /// stopped: a repetition running when the budget ends may finish, one that would take far
  /// longer (an O(n²) cancel at a million observers) may not.
  package static func hardLimit(budget: Double) -> Double { budget * 1.5 + 0.5 }

  /// Whether a cell projected from the smaller sizes of its series to take `projectedSeconds`
  /// is skipped rather than run into its hard limit.
  package static func skips(projectedSeconds: Double, budget: Double) -> Bool {
    projectedSeconds > budget * 1.5
  }
}
