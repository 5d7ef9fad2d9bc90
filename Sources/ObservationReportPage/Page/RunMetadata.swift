import ObservationReports

/// The page's header: what the report is and where its numbers come from (commit, toolchain,
/// machine, allocator, date), then what its cells' statuses say as a whole.
enum RunMetadata {
  /// The `<header>` of `report`, read from `source`.
  ///
  /// - Complexity: O(*r*) for *r* results.
  static func render(_ report: Report, source: String) -> String {
    let results = report.results
    let environments = results.map(\.environment)
    func values(_ value: (RunEnvironment) -> String) -> String {
      var seen: [String] = []
      for text in environments.map(value) where !seen.contains(text) { seen.append(text) }
      return seen.joined(separator: ", ")
    }
    func distinct(_ texts: [String]) -> String {
      var seen: [String] = []
      for text in texts where !seen.contains(text) { seen.append(text) }
      return seen.joined(separator: ", ")
    }
    let cores = distinct(environments.map(\.coresText))
    let fields: [(String, String)] = [
      ("commit", values(\.commit)), ("date", values(\.date)), ("run", values(\.runID)),
      ("toolchain", "Swift " + values(\.swift) + ", " + values(\.build) + " build"),
      ("machine", values(\.host) + ": " + values(\.cpu) + ", " + cores),
      ("system", values(\.os)),
      ("allocator", distinct(results.map(\.cell.allocator.rawValue))),
      ("metric", distinct(results.map(\.metric.rawValue))),
      ("schema", distinct(results.map(\.schema))),
      ("cells", statusCounts(results)),
    ]
    var html = [
      "<header>",
      "<h1>Observatory report</h1>",
      "<p class=\"source\">Read from <code>\(HTMLText.escaped(source))</code></p>",
      "<dl class=\"metadata\">"
        + fields.map { "<dt>\($0.0)</dt><dd>\(HTMLText.escaped($0.1))</dd>" }.joined() + "</dl>",
    ]
    if environments.contains(where: { $0.build.hasPrefix("debug") }) {
      html.append(
        "<p class=\"warning\">Some cells were measured in a debug build: their costs say little"
          + " about release code.</p>")
    }
    // Notes of measured cells (the memory columns' absence) say something about the whole run.
    var notes: [String: Int] = [:]
    var order: [String] = []
    for result in results where result.status.isMeasured && !result.status.reason.isEmpty {
      if notes[result.status.reason] == nil { order.append(result.status.reason) }
      notes[result.status.reason, default: 0] += 1
    }
    if !order.isEmpty {
      html.append(
        "<ul class=\"run-notes\">"
          + order.map { note in
            "<li>\(notes[note] ?? 0) measured cells note: \(HTMLText.escaped(note))</li>"
          }.joined() + "</ul>")
    }
    html.append("</header>")
    return html.joined(separator: "\n")
  }

  /// `735 (484 ok, 251 capped)`: how many cells, and how many of each status.
  private static func statusCounts(_ results: [CellResult]) -> String {
    var counts: [String: Int] = [:]
    var order: [String] = []
    for result in results {
      if counts[result.status.name] == nil { order.append(result.status.name) }
      counts[result.status.name, default: 0] += 1
    }
    return "\(results.count) ("
      + order.map { "\(counts[$0] ?? 0) \($0)" }.joined(separator: ", ") + ")"
  }
}
