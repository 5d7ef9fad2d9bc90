import ObservationReports
import ObservationWorkloads

/// A chart as a figure of the page: its heading, the SVG, a legend of the lines drawn, and a
/// table of every cell under it, with the reasons for the cells that have no value.
enum ChartFigure {
  /// The `<figure>` element of `chart`.
  ///
  /// - Complexity: O(*b* × *s*) for *b* backends and *s* sizes.
  static func render(_ chart: Chart) -> String {
    let key = chart.key
    var html = [
      "<figure class=\"chart\" id=\"\(chart.identifier)\""
        + " data-quantity=\"\(chart.quantity.rawValue)\" data-workload=\"\(key.workload.rawValue)\""
        + " data-pattern=\"\(HTMLText.escaped(key.pattern.rawValue))\""
        + " data-dimension=\"\(chart.dimension.rawValue)\""
        + (chart.dimension == .size ? " data-depth=\"\(key.fixed)\"" : " data-n=\"\(key.fixed)\"")
        + " data-allocator=\"\(key.allocator.rawValue)\" data-metric=\"\(key.metric.rawValue)\">",
      "<figcaption><h3>\(HTMLText.escaped(chart.title))</h3><p>"
        + HTMLText.escaped(caption(chart)) + "</p></figcaption>",
      "<div class=\"plot-area\">", ChartSVG.render(chart), "</div>",
      legend(chart),
      "<p class=\"readout\" hidden></p>",
    ]
    let undrawn = chart.lines.filter { $0.points.isEmpty }
    if !undrawn.isEmpty {
      html.append(
        "<p class=\"undrawn\">No value at any size, so no line: "
          + undrawn.map { "<span class=\"name\">\(HTMLText.escaped($0.backend))</span>" }
          .joined(separator: ", ") + " (see the table).</p>")
    }
    html.append(table(chart))
    html.append("</figure>")
    return html.joined(separator: "\n")
  }

  /// What the chart shows, in sentences: what a value is, against what, and how the floor and
  /// the stops are drawn. The page's caption, and the standalone file's line under its title.
  ///
  /// - Complexity: O(*b*) for *b* backends.
  static func caption(_ chart: Chart) -> String {
    var text: String
    switch chart.quantity {
    case .cost:
      text =
        chart.key.metric == .instructions
        ? "Instructions per operation counted by callgrind (median over processes)"
        : "Median time per operation over the cell's repetitions"
    case .allocations: text = "Allocations per operation, counted by jemalloc"
    case .retainedBytes: text = "Bytes still allocated per observer after subscribing (jemalloc)"
    case .d1Misses, .llMisses: text = "Simulated cache misses per operation (callgrind)"
    case .latency:
      text =
        "Median time from a write to its last observer's callback, over every write of the"
        + " cell (an asynchronous backend's; the 99th percentile is in the report)"
    case .relativeCost:
      text =
        "Median cost per operation divided by the geometric mean of the same report's"
        + " reference rows (its machine's speed)"
    }
    switch chart.dimension {
    case .size: text += ", against n"
    case .depth: text += ", against the path's depth"
    case .threads: text += ", against the threads using the subject at once"
    case .run: text += ", in each report, oldest first"
    }
    text += chart.dimension.isLogarithmic ? "; both axes logarithmic." : "; logarithmic."
    if chart.lines.contains(where: \.isReference) {
      text += " Dashed: the reference rows, the floor a backend is read against"
      text +=
        chart.lines.contains { $0.backend == ReferenceRow.asyncTasks.rawValue }
        ? " (an asynchronous backend against \(ReferenceRow.asyncTasks.rawValue))." : "."
    }
    if chart.lines.contains(where: { !$0.stops.isEmpty }) {
      text +=
        " A cross marks where a line stops: the next"
        + (chart.dimension == .size
          ? " size"
          : chart.dimension == .depth ? " depth" : chart.dimension == .run ? " report" : " count")
        + " was not measured."
    }
    if !chart.changes.isEmpty {
      text +=
        " An orange vertical line marks a report measured with another build, toolchain or"
        + " allocator than the one before it: a step there is not a code change."
    }
    return text
  }

  private static func legend(_ chart: Chart) -> String {
    let items = chart.drawnLines.map { line in
      "<li class=\"\(line.colorClass)\(line.isReference ? " reference" : "")\""
        + " data-backend=\"\(HTMLText.escaped(line.backend))\"><span class=\"swatch\"></span>"
        + "<span class=\"name\">\(HTMLText.escaped(line.backend))</span>"
        + (line.remark.isEmpty ? "" : " <span class=\"remark\">(\(line.remark))</span>") + "</li>"
    }
    return "<ul class=\"legend\">" + items.joined() + "</ul>"
  }

  /// The most reports one table of a trend shows; more make more tables.
  static let reportsPerTable = 4

  /// The table under the chart: a row per backend, a column per position; each cell the value
  /// (and ratio to the limit), or the cell's status with a numbered note saying why. A trend's
  /// reports are split into tables of ``reportsPerTable`` columns.
  private static func table(_ chart: Chart) -> String {
    var notes: [String] = []
    func noteNumber(_ result: CellResult) -> Int {
      let text =
        result.status.name + (result.status.reason.isEmpty ? "" : ": " + result.status.reason)
      if let index = notes.firstIndex(of: text) { return index + 1 }
      notes.append(text)
      return notes.count
    }
    // A trend's reports, however many, are shown in tables of at most
    // `reportsPerTable` columns, one under the other: each fits beside another machine's chart
    // on a desktop, where one wide table would scroll sideways.
    let groups =
      chart.dimension == .run
      ? stride(from: 0, to: chart.positions.count, by: reportsPerTable).map {
        Array(chart.positions[$0..<min($0 + reportsPerTable, chart.positions.count)])
      }
      : [chart.positions]
    var tables: [String] = []
    for (index, positions) in groups.enumerated() {
      var rows: [String] = []
      for line in chart.lines {
        var cells = ["<th scope=\"row\">\(HTMLText.escaped(line.backend))</th>"]
        let points = Dictionary(
          line.points.map { ($0.x, $0) }, uniquingKeysWith: { first, _ in first })
        let attribute = "data-" + chart.dimension.rawValue
        for position in positions {
          if let point = points[position] {
            cells.append(
              "<td class=\"value\" \(attribute)=\"\(position)\">\(chart.valueText(point.value))"
                + (point.ratio.map { "<span class=\"ratio\">\(NumberText.ratio($0))</span>" }
                  ?? "")
                + "</td>")
          } else if let result = line.cells[position], !result.status.isMeasured {
            let number = noteNumber(result)
            cells.append(
              "<td class=\"status \(result.status.name)\" \(attribute)=\"\(position)\">"
                + result.status.name
                + "<sup><a href=\"#\(chart.identifier)-note-\(number)\">\(number)</a></sup></td>")
          } else if line.cells[position] != nil {
            cells.append("<td class=\"status\" \(attribute)=\"\(position)\">no value</td>")
          } else {
            cells.append("<td class=\"absent\" \(attribute)=\"\(position)\">—</td>")
          }
        }
        rows.append(
          "<tr data-backend=\"\(HTMLText.escaped(line.backend))\">" + cells.joined() + "</tr>")
      }
      let header =
        "<tr><th scope=\"col\">backend</th>"
        + positions.map { "<th scope=\"col\">\(HTMLText.escaped(chart.label($0)))</th>" }
        .joined()
        + "</tr>"
      let part =
        groups.count > 1
        ? " (reports \(index * reportsPerTable + 1) to \(index * reportsPerTable + positions.count)"
          + " of \(chart.positions.count))" : ""
      tables.append(
        "<div class=\"table-wrap\"><table class=\"values"
          + (chart.dimension == .run ? " trend" : "") + "\"><caption>"
          + HTMLText.escaped(chart.unit + part)
          + (chart.hasRatios ? "; under each value, its ratio to the limit" : "")
          + "</caption><thead>\(header)</thead><tbody>\n" + rows.joined(separator: "\n")
          + "\n</tbody></table></div>")
    }
    var html = tables.joined(separator: "\n")
    if !notes.isEmpty {
      html +=
        "\n<ol class=\"notes\">"
        + notes.enumerated().map { index, note in
          "<li id=\"\(chart.identifier)-note-\(index + 1)\">\(HTMLText.escaped(note))</li>"
        }.joined() + "</ol>"
    }
    return html
  }
}
