/// Text made safe to place in an HTML document, in element content or in a quoted attribute
/// value: everything a report, a baseline or a conformance matrix holds goes through it.
enum HTMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references, so that it shows
  /// as the characters it holds and can start no element, attribute or script.
  ///
  /// - Complexity: O(*c*) for *c* characters.
  static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      // Control characters other than tab and line breaks are not allowed in HTML text.
      case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{7F}": result += "\u{FFFD}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
