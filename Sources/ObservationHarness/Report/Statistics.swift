/// Order statistics of a cell's repetitions.
public struct Summary {
  var min: Double
  var median: Double
  var p90: Double
  var max: Double

  /// `nil` for no values.
  init?(_ values: [Double]) {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    func quantile(_ q: Double) -> Double {
      // Linear interpolation between closest ranks.
      let position = q * Double(sorted.count - 1)
      let lower = Int(position)
      let upper = Swift.min(lower + 1, sorted.count - 1)
      return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }
    min = sorted[0]
    median = quantile(0.5)
    p90 = quantile(0.9)
    max = sorted[sorted.count - 1]
  }
}

/// Formats a number for the CSV: up to three decimals, no exponent.
public func csvNumber(_ value: Double?) -> String {
  guard let value, value.isFinite else { return "" }
  if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
  var text = String(format: "%.3f", value)
  while text.hasSuffix("0") { text.removeLast() }
  if text.hasSuffix(".") { text.removeLast() }
  return text
}
