import ArgumentParser
import Foundation

/// Parses a comma-separated list of integers given to an option such as `--sizes 1,16,256`.
enum IntegerListOption {
  /// The integers in `text`, each within `range`.
  ///
  /// - Throws: a `ValidationError` naming the first bad entry (`bad size 'x' in --sizes`) and
  ///   what is accepted.
  static func parse(
    _ text: String, option: String, entry: String, range: ClosedRange<Int>
  ) throws -> [Int] {
    try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
      let item = part.trimmingCharacters(in: .whitespaces)
      guard let value = Int(item), range.contains(value) else {
        throw ValidationError(
          "bad \(entry) '\(item)' in \(option); accepted: comma-separated integers from"
            + " \(range.lowerBound) to \(range.upperBound)")
      }
      return value
    }
  }
}
