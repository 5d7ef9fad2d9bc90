/// Text made safe to place in an HTML document or an XML one (a standalone SVG chart), in
/// element content or in a quoted attribute value: everything a report, a baseline or a
/// conformance matrix holds goes through it.
enum HTMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references, so that it shows
  /// as the characters it holds and can start no element, attribute or script; and with the
  /// characters neither HTML text nor XML allows replaced by U+FFFD, so that an XML document
  /// holding it stays well-formed.
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
      // Control characters other than tab and line breaks are not allowed in HTML text, nor
      // in XML; neither are the noncharacters U+FFFE and U+FFFF in XML.
      case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{7F}", "\u{FFFE}",
        "\u{FFFF}":
        result += "\u{FFFD}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
