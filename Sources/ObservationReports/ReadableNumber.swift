import Foundation

// Numbers as a person reads them: the tables, the page, the comparisons and the error lines
// print costs, ratios and changes with these, and the CSV keeps its own digits
// (``csvNumber(_:)``). Every one takes any `Double` bit pattern: no input traps, and none
// prints more than 16 characters (a count, which keeps every digit below 10^15, 20), however
// large or small the value. A value that is not finite prints empty, as ``csvNumber(_:)``
// writes it. The `readable-numbers` fuzz target holds them to this and to reading back.

/// A finite, non-zero magnitude rounded once to three significant digits: `digits` from 100
/// to 999 times ten to the power `exponent - 2`.
///
/// The rounding is the C library's (`%.2e`), which is exact for every finite `Double`,
/// subnormals and the largest included: computing `value / 10^k` in floating point instead
/// overflows or underflows at the ends of the range (the crash this type replaces).
struct SignificantDigits: Equatable {
  /// The three digits, 100 to 999.
  var digits: Int
  /// The power of ten of the first digit: 2 for 437, 0 for 4.37, -3 for 0.00437.
  var exponent: Int

  /// The digits of `magnitude`, which must be finite and above zero.
  ///
  /// - Complexity: O(1).
  init(_ magnitude: Double) {
    precondition(magnitude.isFinite && magnitude > 0)
    // "4.37e+02": one digit, the point, two digits, then the exponent.
    let text = Array(String(format: "%.2e", magnitude).utf8)
    let zero = UInt8(ascii: "0")
    digits = Int(text[0] - zero) * 100 + Int(text[2] - zero) * 10 + Int(text[3] - zero)
    var power = 0
    for byte in text[6...] { power = power * 10 + Int(byte - zero) }
    exponent = text[5] == UInt8(ascii: "-") ? -power : power
  }

  /// The digits as fixed decimals when the first digit's power is in `fixed` (`4.37`, `43.7`,
  /// `4370`, `0.0437`), otherwise in scientific notation (`4.37e+12`, `4.37e-7`).
  ///
  /// - Complexity: O(1): at most `fixed`'s span of characters.
  func text(fixed: ClosedRange<Int>) -> String {
    let characters = Array(String(digits))
    guard fixed.contains(exponent) else {
      let sign = exponent < 0 ? "-" : "+"
      let power = String(abs(exponent))
      return "\(characters[0]).\(characters[1])\(characters[2])e\(sign)"
        + (power.count < 2 ? "0" : "") + power
    }
    if exponent < 0 {
      return "0." + String(repeating: "0", count: -exponent - 1) + String(characters)
    }
    if exponent >= 2 {
      return String(characters) + String(repeating: "0", count: exponent - 2)
    }
    return String(characters[...exponent]) + "." + String(characters[(exponent + 1)...])
  }
}

/// A time as a person reads it: three significant digits in the unit that fits, `4.37 ns`,
/// `3.52 µs`, `53.6 µs`, `1.83 ms`, `2.10 s`.
///
/// The unit is chosen after rounding, so 999.6 ns reads `1.00 µs`, not `1000 ns`. Below one
/// nanosecond the time stays in nanoseconds down to `0.00412 ns`, above 1,000 s it stays in
/// seconds up to `412000 s`; beyond either, scientific notation (`4.12e-5 ns`, `1.80e+299 s`).
/// Zero is `0 ns`; a value that is not finite is empty, as ``csvNumber(_:)`` writes it.
///
/// - Complexity: O(1).
package func readableNanoseconds(_ nanoseconds: Double?) -> String {
  guard let nanoseconds, nanoseconds.isFinite else { return "" }
  if nanoseconds == 0 { return "0 ns" }
  let rounded = SignificantDigits(abs(nanoseconds))
  let units: [(power: Int, name: String)] = [(9, "s"), (6, "ms"), (3, "µs")]
  let unit = units.first { rounded.exponent >= $0.power } ?? (0, "ns")
  var scaled = rounded
  scaled.exponent -= unit.power
  let sign = nanoseconds < 0 ? "-" : ""
  return sign + scaled.text(fixed: -3...5) + " " + unit.name
}

/// A ratio as a person reads it: three significant digits after a `×`, `×1`, `×1.32`, `×12.6`,
/// `×1570`; beyond `×999000` or below `×0.001`, scientific notation (`×1.8e+308`). Tables and
/// the page print a cost's ratio to its limit this way; the CSV keeps every digit
/// (``csvNumber(_:)``). A value that is not finite is empty.
///
/// - Complexity: O(1).
package func readableRatio(_ ratio: Double?) -> String {
  guard let ratio, ratio.isFinite else { return "" }
  guard ratio != 0 else { return "×0" }
  var text = SignificantDigits(abs(ratio)).text(fixed: -3...5)
  // Trailing zeros say nothing a reader needs: ×1, not ×1.00; ×1.5, not ×1.50.
  var mantissa = text.split(separator: "e", maxSplits: 1).map(String.init)
  if mantissa[0].contains(".") {
    while mantissa[0].hasSuffix("0") { mantissa[0].removeLast() }
    if mantissa[0].hasSuffix(".") { mantissa[0].removeLast() }
  }
  text = mantissa.joined(separator: "e")
  return "×" + (ratio < 0 ? "-" : "") + text
}

/// A percentage with one decimal, `12.5%`, or with a sign, `+12.5%`, `-3.0%`, as comparisons
/// print a change; beyond a million percent, three significant digits in scientific notation
/// (`+1.80e+308%`), never hundreds of digits. A value that is not finite is `nan%` or `inf%`,
/// as C prints it.
///
/// - Complexity: O(1).
package func readablePercent(_ percent: Double, signed: Bool = false) -> String {
  let sign = signed ? "+" : ""
  if percent.isFinite && abs(percent) >= 1e6 {
    return String(format: "%\(sign).2e%%", percent)
  }
  return String(format: "%\(sign).1f%%", percent)
}

/// The change a ratio of two costs means, as a signed percentage: `+12.5%` for 1.125
/// (``readablePercent(_:signed:)``).
///
/// - Complexity: O(1).
package func readableChange(ofRatio ratio: Double) -> String {
  readablePercent((ratio - 1) * 100, signed: true)
}

/// A count as a person reads it: every digit up to 10^15 (`1234567`, `0.5`), as
/// ``csvNumber(_:)`` writes it, and above that three significant digits in scientific
/// notation (`1.80e+308`), never hundreds of digits. Empty for a value that is not finite.
///
/// - Complexity: O(1).
package func readableCount(_ count: Double?) -> String {
  guard let count, count.isFinite else { return "" }
  guard abs(count) >= 1e15 else { return csvNumber(count) }
  return (count < 0 ? "-" : "") + SignificantDigits(abs(count)).text(fixed: 0...0)
}
