import Foundation

/// A time as a person reads it: three significant digits in the unit that fits, `4.37 ns`,
/// `3.52 µs`, `53.6 µs`, `1.83 ms`, `2.10 s`. Tables, the page and the comparisons print costs
/// this way; the CSV keeps every digit (``csvNumber(_:)``).
///
/// The unit is chosen after rounding, so 999.6 ns reads `1.00 µs`, not `1000 ns`. Below one
/// nanosecond the time stays in nanoseconds (`0.412 ns`); zero is `0 ns`; a value that is not
/// finite is empty, as ``csvNumber(_:)`` writes it.
///
/// - Complexity: O(1).
package func readableNanoseconds(_ nanoseconds: Double?) -> String {
  guard let nanoseconds, nanoseconds.isFinite else { return "" }
  if nanoseconds == 0 { return "0 ns" }
  let magnitude = abs(nanoseconds)
  // Rounded to three significant digits first, so that the unit fits the rounded value.
  let exponent = Int(floor(log10(magnitude)))
  let step = pow(10, Double(exponent - 2))
  let rounded = (magnitude / step).rounded() * step
  let units: [(scale: Double, name: String)] = [(1e9, "s"), (1e6, "ms"), (1e3, "µs")]
  // (The rounded value can sit a hair below a power of ten: 1000 may be 999.9999999999999.)
  let unit = units.first { rounded >= $0.scale * (1 - 1e-12) } ?? (1, "ns")
  let scaled = rounded / unit.scale
  // Digits after the point: three significant in all (`4.37`, `53.6`, `536`).
  let decimals = max(0, 2 - Int(floor(log10(scaled) + 1e-9)))
  let sign = nanoseconds < 0 ? "-" : ""
  return sign + String(format: "%.\(decimals)f", scaled) + " " + unit.name
}

/// A ratio as a person reads it: three significant digits after a `×`, `×1`, `×1.32`, `×12.6`,
/// `×1570`. Tables and the page print a cost's ratio to its limit this way; the CSV keeps
/// every digit (``csvNumber(_:)``). A value that is not finite is empty.
///
/// - Complexity: O(1).
package func readableRatio(_ ratio: Double?) -> String {
  guard let ratio, ratio.isFinite else { return "" }
  guard ratio != 0 else { return "×0" }
  let exponent = Int(floor(log10(abs(ratio))))
  let step = pow(10, Double(exponent - 2))
  let rounded = (ratio / step).rounded() * step
  let decimals = max(0, 2 - Int(floor(log10(abs(rounded)) + 1e-9)))
  var text = String(format: "%.\(decimals)f", rounded)
  // Trailing zeros say nothing a reader needs: ×1, not ×1.00; ×1.5, not ×1.50.
  if text.contains(".") {
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
  }
  return "×" + text
}
