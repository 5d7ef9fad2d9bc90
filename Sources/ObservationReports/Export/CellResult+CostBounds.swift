extension CellResult {
  /// A range the cell's cost per operation lay in over what was measured, around ``cost``; `nil`
  /// for a cell not measured, or measured once.
  ///
  /// - Time: from the fastest repetition (`ns_min`) to the 90th percentile (`ns_p90`). The
  ///   slowest repetition (`ns_max`) is left out on purpose: it is one repetition, most often
  ///   the one the machine interrupted, and a band drawn to it would say more about the machine
  ///   than about the code; the 90th percentile is the bound `history` prints beside the median.
  /// - Instructions: ``cost`` ± ``instructionsSpread`` × ``cost``. The spread is
  ///   (max − min) / median of the processes' counts, so this band holds the smallest and the
  ///   largest count whatever they were; `nil` without a spread (one process, as for every
  ///   synchronous backend, whose count repeats to the instruction). The lower bound is never
  ///   below 0.
  ///
  /// Both bounds are rounded to the CSV's three decimals, which keeps them on either side of
  /// the cost (itself a number the CSV holds).
  ///
  /// - Complexity: O(1).
  public var costBounds: (lower: Double, upper: Double)? {
    guard status.isMeasured, let cost else { return nil }
    let lower: Double
    let upper: Double
    switch metric {
    case .time:
      guard let nanoseconds else { return nil }
      (lower, upper) = (nanoseconds.min, nanoseconds.p90)
    case .instructions:
      guard let spread = instructionsSpread else { return nil }
      (lower, upper) = (Swift.max(0, cost - spread * cost), cost + spread * cost)
    }
    return (Swift.min(Self.rounded(lower), cost), Swift.max(Self.rounded(upper), cost))
  }

  /// `value` as the CSV writes it: at most three decimals.
  static func rounded(_ value: Double) -> Double {
    Double(csvNumber(value)) ?? value
  }
}
