import ArgumentParser
import Foundation
import ObservationHarness

/// Parses a comma-separated list of integers given to an option such as `--sizes 1,16,256`.
enum IntegerListOption {
  /// The integers in `text`, each within `range`.
  ///
  /// - Throws: a `ValidationError` naming the first bad entry (`bad size 'x' in --sizes`) and
  ///   what is accepted.
  static func parse(
    _ text: String, option: String, entry: String, range: ClosedRange<Int>
  ) throws -> [Int] {
    var values: [Int] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let item = part.trimmingCharacters(in: .whitespaces)
      guard let value = Int(item), range.contains(value) else {
        throw ValidationError(
          "bad \(entry) '\(item)' in \(option); accepted: comma-separated integers from"
            + " \(range.lowerBound) to \(range.upperBound)")
      }
      // A value given twice would measure one cell twice and write it twice.
      if values.contains(value) {
        throw ValidationError("\(entry) \(value) is given twice in \(option)")
      }
      values.append(value)
    }
    return values
  }
}
