import Foundation

/// Plain-text tables for the terminal: columns padded to their widest cell, two spaces apart.
package enum TextTable {
  /// The rows' lines, each ending in a newline. The last column is not padded, so a long
  /// verdict or reason does not widen every line.
  ///
  /// - Complexity: O(*c*) for *c* characters in all.
  package static func render(_ rows: [[String]]) -> String {
    guard let columns = rows.map(\.count).max(), columns > 0 else { return "" }
    let widths = (0..<columns - 1).map { column in
      rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
    }
    return rows.map { row in
      row.enumerated().map { index, text in
        index < widths.count
          ? text.padding(toLength: widths[index], withPad: " ", startingAt: 0) : text
      }.joined(separator: "  ") + "\n"
    }.joined()
  }
}
