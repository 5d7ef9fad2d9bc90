extension Comparison {
  /// The threshold `compare` uses when none is given, as a fraction: 5% for times, whose runs
  /// scatter, and 1% for instruction counts, which repeat.
  ///
  /// - Complexity: O(1).
  package static func defaultThreshold(for metric: Metric) -> Double {
    metric == .instructions ? 0.01 : 0.05
  }
}
