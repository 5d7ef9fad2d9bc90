import Foundation

/// The head both pages share: the character set, the viewport, a Content-Security-Policy that
/// lets only the page's own inline style and its one script (by its SHA-256) run, the generator,
/// the title and the style sheet.
enum PageHead {
  /// The lines from `<head>` to `</head>`, with `title` escaped.
  ///
  /// - Complexity: O(*s*) in the length *s* of the script, which is hashed.
  static func lines(title: String, generator: String) -> [String] {
    let digest = Data(SHA256.digest(Array(ReportPageScript.source.utf8))).base64EncodedString()
    return [
      "<head>",
      "<meta charset=\"utf-8\">",
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"
        + " style-src 'unsafe-inline'; script-src 'sha256-\(digest)'; base-uri 'none';"
        + " form-action 'none'\">",
      "<meta name=\"generator\" content=\"\(HTMLText.escaped(generator))\">",
      "<title>\(HTMLText.escaped(title))</title>",
      "<style>\n" + ReportPageStyle.css + "\n</style>",
      "</head>",
    ]
  }
}
