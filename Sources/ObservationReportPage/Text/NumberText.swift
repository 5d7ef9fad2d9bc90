import Foundation
import ObservationReports

/// How the page writes the numbers of a report: every figure as the report holds it, sizes with
/// thousands separators, axis ticks short.
enum NumberText {
  /// A value as the CSV writes it (at most three decimals); see ``csvNumber(_:)``.
  static func value(_ value: Double) -> String { csvNumber(value) }

  /// A ratio to the limit, three significant digits: `×25.8` (``readableRatio(_:)``).
  static func ratio(_ ratio: Double) -> String { readableRatio(ratio) }

  /// A whole number with thousands separators: `1,048,576`.
  ///
  /// - Complexity: O(*d*) for *d* digits.
  static func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
      result.append(digit)
    }
    return (number < 0 ? "-" : "") + result
  }

  /// A size on an axis, short: a multiple of 1,024 with a binary prefix (`4Ki`, `64Ki`, `1Mi`),
  /// anything else in full (`16`, `1,000`); exact either way.
  static func compactSize(_ number: Int) -> String {
    for (scale, prefix) in [(1 << 30, "Gi"), (1 << 20, "Mi"), (1 << 10, "Ki")]
    where number >= scale && number % scale == 0 {
      return grouped(number / scale) + prefix
    }
    return grouped(number)
  }

  /// An axis tick: `0.01`, `5`, `100`, `2k`, `10M`, `1G`; exact for the 1-2-5 values a
  /// ``LogAxis`` ticks at.
  static func tick(_ value: Double) -> String {
    let suffixes: [(Double, String)] = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")]
    for (scale, suffix) in suffixes where value >= scale {
      return csvNumber(value / scale) + suffix
    }
    // Ticks below one are powers of ten times 1, 2 or 5: printed in plain decimals, which
    // csvNumber would round away below 0.001.
    if value < 0.001 { return String(format: "%g", value) }
    return csvNumber(value)
  }
}
