import Foundation

/// Predicts what the next size of a series will cost from the sizes already measured, so that
/// a pathological cell (a linear-search cancel at 65,536 observers) is capped before it runs
/// instead of spending its whole time limit.
///
/// Two projections, the larger wins:
/// - **set-up**: once sizes are large enough that building the observers dominates, a
///   repetition's wall time grows linearly with *n*;
/// - **per operation**: the growth of the per-operation cost between the last two sizes
///   (`n^e`, with `e` between 0 and 2) carried to the next size, times the least work a
///   repetition does there.
package struct CostProjection {
  private struct Point {
    let n: Int
    let secondsPerRepetition: Double
    let nanosecondsPerOperation: Double
  }

  private var points: [Point] = []

  /// Records a finished size.
  mutating func record(n: Int, secondsPerRepetition: Double, nanosecondsPerOperation: Double) {
    points.append(
      Point(
        n: n, secondsPerRepetition: secondsPerRepetition,
        nanosecondsPerOperation: nanosecondsPerOperation))
  }

  /// The projected wall seconds of a cell of size `n` running `repetitions` repetitions of at
  /// least `minimumOperations` operations each, or `nil` when too little is known.
  func projectedSeconds(n: Int, repetitions: Int, minimumOperations: Int) -> Double? {
    guard let last = points.last else { return nil }
    var projections: [Double] = []
    if last.n >= 4096 {
      projections.append(
        last.secondsPerRepetition * Double(n) / Double(last.n) * Double(repetitions))
    }
    if points.count >= 2 {
      let previous = points[points.count - 2]
      // Below a few hundred observers, fixed costs hide how an operation's cost grows.
      if previous.n >= 256, previous.nanosecondsPerOperation > 0, last.n > previous.n {
        let exponent =
          log(last.nanosecondsPerOperation / previous.nanosecondsPerOperation)
          / log(Double(last.n) / Double(previous.n))
        let growth = pow(Double(n) / Double(last.n), min(2, max(0, exponent)))
        projections.append(
          last.nanosecondsPerOperation * growth * 1e-9 * Double(minimumOperations)
            * Double(repetitions))
      }
    }
    return projections.max()
  }
}
