/// An error or warning line of bounded length: a value the user gave or a report holds is
/// named, shortened when long, with its length, so that a 100-kilobyte `--threads` list or a
/// 300-digit number does not drown the line that says what was wrong.
///
/// A quoted value (`'...'`) longer than ``longestValue`` characters keeps its first and last
/// characters around an ellipsis and says how long it was: `'1,2,3,4,5,6,7,8…,9,9,9,9' (109000
/// characters)`; so does an unquoted word of more than ``longestWord`` characters. A line still
/// longer than ``longestLine`` after that keeps its beginning and end.
enum BoundedLine {
  /// The longest quoted value shown whole.
  static let longestValue = 80
  /// The longest run of characters without a space shown whole.
  static let longestWord = 120
  /// The longest line.
  static let longestLine = 2000

  /// `line`, with long values shortened (see the type's description).
  ///
  /// - Complexity: O(*c*) for *c* characters.
  static func shortened(_ line: String) -> String {
    guard line.count > longestValue else { return line }
    var result = ""
    var rest = Substring(line)
    while let quote = rest.firstIndex(where: { $0 == "'" || $0 == " " }) {
      // An apostrophe inside a word (`backend's`) opens no value.
      if rest[quote] == "'" && quote != rest.startIndex {
        result += words(rest[...quote])
        rest = rest[rest.index(after: quote)...]
        continue
      }
      result += words(rest[..<quote])
      if rest[quote] == " " {
        result += " "
        rest = rest[rest.index(after: quote)...]
        continue
      }
      let inside = rest[rest.index(after: quote)...]
      guard let closing = inside.firstIndex(of: "'") else {
        result += "'"
        rest = inside
        continue
      }
      result += "'" + value(inside[..<closing], longest: longestValue) + "'"
      let count = inside[..<closing].count
      if count > longestValue { result += " (\(count) characters)" }
      rest = inside[inside.index(after: closing)...]
    }
    result += words(rest)
    guard result.count > longestLine else { return result }
    let kept = longestLine / 2
    return String(result.prefix(kept)) + " … (\(result.count - 2 * kept) characters left out) … "
      + String(result.suffix(kept))
  }

  /// A run without quotes or spaces, shortened past ``longestWord``.
  private static func words(_ text: Substring) -> String {
    guard text.count > longestWord else { return String(text) }
    return value(text, longest: longestWord) + " (\(text.count) characters)"
  }

  /// `text` whole, or its ends around an ellipsis when it is longer than `longest`.
  private static func value(_ text: Substring, longest: Int) -> String {
    guard text.count > longest else { return String(text) }
    let end = longest / 4
    return String(text.prefix(longest - end - 1)) + "…" + String(text.suffix(end))
  }
}
