/// How wide a text is drawn, estimated without a font: SVG cannot measure text when it is
/// written, and a chart file must place its legend so that no two labels overlap in whatever
/// font the viewer has.
///
/// The widths are those of DejaVu Sans, in ems, grouped in a few classes and rounded up: DejaVu
/// Sans is among the widest of the fonts `system-ui` and `sans-serif` resolve to (Segoe UI,
/// San Francisco, Roboto and Cantarell are narrower), so a label rarely takes more room than
/// estimated.
enum TextWidth {
  /// The width of `text` at `fontSize`, `bold` or not, in the units of the font size.
  ///
  /// - Complexity: O(*c*) for *c* characters.
  static func of(_ text: String, fontSize: Double, bold: Bool = false) -> Double {
    let ems = text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    return ems * fontSize * (bold ? 1.1 : 1)
  }

  /// `text` broken at spaces into lines of at most `width` each at `fontSize`; a word wider
  /// than `width` is a line of its own.
  ///
  /// - Complexity: O(*c*) for *c* characters.
  static func wrapped(
    _ text: String, width: Double, fontSize: Double, bold: Bool = false
  )
    -> [String]
  {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      let candidate = line.isEmpty ? String(word) : line + " " + word
      if !line.isEmpty && of(candidate, fontSize: fontSize, bold: bold) > width {
        lines.append(line)
        line = String(word)
      } else {
        line = candidate
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// `text`, shortened with an ellipsis at its end if it is wider than `width` at `fontSize`.
  ///
  /// - Complexity: O(*c*) for *c* characters.
  static func truncated(_ text: String, width: Double, fontSize: Double) -> String {
    guard of(text, fontSize: fontSize) > width else { return text }
    var kept = ""
    var used = of("…", fontSize: fontSize)
    for character in text {
      let next = of(String(character), fontSize: fontSize)
      guard used + next <= width else { break }
      kept.append(character)
      used += next
    }
    return kept + "…"
  }

  /// The width of one character in ems, by its class in DejaVu Sans: thin (`i`, `l`, `.`,
  /// space), narrow (`f`, `t`, `r`, `-`, brackets), most lower-case letters and digits, capitals,
  /// wide (`m`, `w`, `M`, `W`, `@`, `%`, operators), and anything else (accented, CJK, symbols)
  /// as a full em.
  private static func width(of scalar: Unicode.Scalar) -> Double {
    switch scalar {
    case "i", "j", "l", "I", "J", "'", "|", ".", ",", ":", ";", " ", "/", "\\", "!": return 0.36
    case "f", "t", "r", "-", "(", ")", "[", "]", "\"": return 0.47
    case "m", "w", "M", "W", "@", "%", "&", "#", "+", "<", "=", ">", "^", "~": return 1.0
    case "A"..."Z": return 0.8
    case " "..."~": return 0.65
    default: return 1.0
    }
  }
}
