import Foundation
import ObservationReports

extension FuzzTarget {
  /// The longest text a readable formatter may print, sign and unit included.
  static let longestReadable = 16
  /// The longest count: every digit below 10^15, with the CSV's three decimals and a sign
  /// (`-999999999999999.999`). The fuzzer's first finding: a 17-character count.
  static let longestCount = 20

  /// The numbers target: each 8 bytes a `Double` through every formatter.
  static func checkReadableNumbers(_ input: [UInt8]) throws(FuzzFinding) {
    var index = 0
    while index + 8 <= input.count {
      var bits: UInt64 = 0
      for byte in input[index..<index + 8] { bits = bits << 8 | UInt64(byte) }
      try checkReadable(Double(bitPattern: bits))
      index += 8
    }
  }

  /// Every formatter on `value`, each held to its promise.
  static func checkReadable(_ value: Double) throws(FuzzFinding) {
    let texts = [
      ("readableNanoseconds", readableNanoseconds(value)), ("readableRatio", readableRatio(value)),
      ("readablePercent", readablePercent(value)),
      ("readableChange", readableChange(ofRatio: value)), ("readableCount", readableCount(value)),
    ]
    for (name, text) in texts
    where text.count > (name == "readableCount" ? longestCount : longestReadable) {
      throw FuzzFinding("\(name)(\(value)) printed \(text.count) characters: \(text.prefix(40))")
    }
    let csv = csvNumber(value)
    guard value.isFinite else {
      for (name, text) in [texts[0], texts[1], texts[4], ("csvNumber", csv)] where !text.isEmpty {
        throw FuzzFinding("\(name)(\(value)) printed '\(text)', not nothing")
      }
      return
    }
    // The CSV's number: every digit to three decimals.
    guard let parsed = Double(csv), abs(parsed - value) <= 0.0005 + value.ulp else {
      throw FuzzFinding("csvNumber(\(value)) printed '\(csv)', which does not read back")
    }
    try expect(texts[0].1, readsBackAs: value, name: "readableNanoseconds", units: timeUnits)
    try expect(texts[1].1, readsBackAs: value, name: "readableRatio", units: [("×", 0)])
    // A count has every digit to three decimals below 10^15, as the CSV has it.
    if abs(value) < 1e15 {
      guard texts[4].1 == csv else {
        throw FuzzFinding("readableCount(\(value)) printed '\(texts[4].1)', not '\(csv)'")
      }
    } else {
      try expect(texts[4].1, readsBackAs: value, name: "readableCount", units: [("", 0)])
    }
    try expectPercent(texts[2].1, of: value, name: "readablePercent")
    try expectPercent(texts[3].1, of: (value - 1) * 100, name: "readableChange")
  }

  /// The time units a readable time may end with, and their powers of ten in nanoseconds.
  static let timeUnits: [(String, Int)] = [(" ns", 0), (" µs", 3), (" ms", 6), (" s", 9)]

  /// Checks that `text`, a number followed by one of `units` (or, for a ratio, after its
  /// `×`), reads back as `value` to within half of its third significant digit.
  static func expect(
    _ text: String, readsBackAs value: Double, name: String, units: [(String, Int)]
  ) throws(FuzzFinding) {
    let failure = FuzzFinding("\(name)(\(value)) printed '\(text)', which does not read back")
    var body = Substring(text)
    var power = 0
    if let (unit, unitPower) = units.first(where: { !$0.0.isEmpty && body.hasPrefix($0.0) }) {
      body = body.dropFirst(unit.count)
      power = unitPower
    } else if let (unit, unitPower) = units.first(where: { body.hasSuffix($0.0) }) {
      body = body.dropLast(unit.count)
      power = unitPower
    } else {
      throw failure
    }
    guard let printed = DecimalText(body), let exact = DecimalText(exactly: value) else {
      throw failure
    }
    // Zero prints as zero, exactly.
    if value == 0 {
      guard printed.digits == 0 else { throw failure }
      return
    }
    guard printed.negative == (value < 0) else { throw failure }
    // Within half a unit of the printed value's third significant digit, and rounded to it
    // from the value's own decimal expansion (in the value's exponent or one above).
    let shift = printed.exponent + power - exact.exponent
    guard shift == 0 || shift == 1 else { throw failure }
    let printedMantissa = printed.mantissa * pow(10, Double(shift))
    let tolerance = 0.5 * pow(10, Double(shift - 2)) * (1 + 1e-9)
    guard abs(printedMantissa - exact.mantissa) <= tolerance else { throw failure }
  }

  /// Checks a percentage: one decimal below a million, three significant digits above.
  private static func expectPercent(
    _ text: String, of percent: Double, name: String
  ) throws(FuzzFinding) {
    guard percent.isFinite, text.hasSuffix("%") else { return }
    let failure = FuzzFinding("\(name) of \(percent)% printed '\(text)', which does not read back")
    guard let parsed = Double(text.dropLast()) else { throw failure }
    if abs(percent) < 1e6 {
      guard abs(parsed - percent) <= 0.05 + percent.ulp * 4 else { throw failure }
    } else if parsed.isFinite {
      guard abs(parsed - percent) <= abs(percent) * 0.005 + percent.ulp else { throw failure }
    }
  }
}

/// A decimal number's text taken apart: sign, significant digits, and the power of ten of the
/// first digit. Reading a printed number this way never overflows, where `Double("1.80e+308")`
/// is infinite.
struct DecimalText {
  var negative: Bool
  /// The significant digits as a number from 1 to 10 (`4.37`), or 0.
  var mantissa: Double
  /// The significant digits as an integer (`437`), for testing zero.
  var digits: Int
  /// The power of ten of the first significant digit.
  var exponent: Int

  /// `text`, plain (`-43.7`, `0.00412`, `4370`) or scientific (`1.80e+299`); `nil` for
  /// anything else.
  init?(_ text: Substring) {
    var body = text
    negative = body.hasPrefix("-")
    if negative { body = body.dropFirst() }
    var power = 0
    if let e = body.firstIndex(of: "e") {
      guard let value = Int(body[body.index(after: e)...]) else { return nil }
      power = value
      body = body[..<e]
    }
    let parts = body.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), !parts[0].isEmpty,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
    else { return nil }
    let whole = parts[0]
    let fraction = parts.count == 2 ? parts[1] : ""
    let allDigits = Array(whole + fraction)
    guard let first = allDigits.firstIndex(where: { $0 != "0" }) else {
      mantissa = 0
      digits = 0
      exponent = 0
      return
    }
    exponent = power + whole.count - 1 - first
    let significant = allDigits[first...]
    digits = Int(String(significant.prefix(15))) ?? 0
    mantissa = Double("0." + String(significant))! * 10
  }

  /// The exact decimal expansion of `value` (17 significant digits: enough to tell any two
  /// doubles apart).
  init?(exactly value: Double) {
    self.init(Substring(String(format: "%.16e", value)))
  }
}
