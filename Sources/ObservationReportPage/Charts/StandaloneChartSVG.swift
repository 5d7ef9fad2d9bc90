import ObservationReports
import ObservationWorkloads

/// A ``Chart`` as an SVG document of its own, for a README or anywhere an image goes: the
/// chart's title and unit at the top with what the workload does and how the chart reads, the
/// drawing the page has (``ChartSVG``), a legend of the lines drawn, and the run it measures.
///
/// Shown through an `<img>` element, an SVG file gets no style sheet, runs no script and loads
/// nothing, so everything is inside it: its own `<style>` with the page's colours
/// (``ChartStyle``), a white background, and the legend drawn in SVG, laid out in as many
/// columns as fit (``LegendLayout``) and the file as tall as its rows need. It has no script,
/// no event handler and no reference to anything outside it; every text from the report is
/// escaped, so the file is well-formed XML whatever the report holds.
enum StandaloneChartSVG {
  /// The drawing's size and margins.
  static let layout = ChartSVG.Layout.standalone
  /// The space between the file's edge and its text.
  static let padding = 16.0
  /// The font sizes of the title, the lines under it, and the axes, legend and footnote.
  static let titleSize = 17.0
  static let subtitleSize = 13.0
  static let textSize = 12.0

  /// The file's own style: the page's colours and drawing rules, the text's colours and font,
  /// the background, and the legend's swatches (dashed and hollow for the reference rows, as
  /// their lines are).
  static var css: String {
    ChartStyle.colorRules + "\n" + ChartStyle.drawingRules + "\n" + """
      svg{--ink:#1b1b1b;--muted:#5c5c5c;--paper:#fff;font-size:\(Int(textSize))px;\
      font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
      svg .background{fill:var(--paper);stroke:#d0d7de}
      svg .heading{font-size:\(Int(titleSize))px;font-weight:600}
      svg .heading .unit,svg .heading.unit{font-weight:400;fill:var(--muted)}
      svg .subheading{font-size:\(Int(subtitleSize))px}
      svg .caption,svg .provenance{fill:var(--muted)}
      svg .legend path{fill:none;stroke:var(--c);stroke-width:2.5}
      svg .legend circle{fill:var(--c)}
      svg .legend .reference path{stroke-dasharray:6 4;stroke-width:1.6}
      svg .legend .reference circle{fill:var(--paper);stroke:var(--c);stroke-width:1.4}
      """
  }

  /// The document of `chart`: an XML declaration and one `svg` element.
  ///
  /// - Complexity: O(*p* + *t* + *b*²) for *p* points, *t* ticks and *b* backends.
  static func document(_ chart: Chart, generator: String) -> String {
    let width = layout.width
    let textWidth = width - 2 * padding
    var svg: [String] = []
    var cursor = padding

    /// Appends `text` as lines of class `className` at `size`, wrapped to the text's width.
    func paragraph(_ text: String, className: String, size: Double, bold: Bool = false) {
      for line in TextWidth.wrapped(text, width: textWidth, fontSize: size, bold: bold) {
        svg.append(
          "<text class=\"\(className)\" x=\"\(format(padding))\""
            + " y=\"\(format(cursor + size))\">\(HTMLText.escaped(line))</text>")
        cursor += size * 1.4
      }
    }
    // The unit beside the title when both fit on one line, else on a line of its own.
    let unit = " · " + chart.unit
    if TextWidth.of(chart.title, fontSize: titleSize, bold: true)
      + TextWidth.of(unit, fontSize: titleSize) <= textWidth
    {
      svg.append(
        "<text class=\"heading\" x=\"\(format(padding))\" y=\"\(format(cursor + titleSize))\">"
          + HTMLText.escaped(chart.title)
          + "<tspan class=\"unit\">\(HTMLText.escaped(unit))</tspan>"
          + "</text>")
      cursor += titleSize * 1.4
    } else {
      paragraph(chart.title, className: "heading", size: titleSize, bold: true)
      paragraph(chart.unit, className: "heading unit", size: titleSize)
    }
    cursor += 2
    paragraph(description(chart.key), className: "subheading", size: subtitleSize)
    paragraph(ChartFigure.caption(chart), className: "caption", size: textSize)
    cursor += 8

    svg.append("<g class=\"chart\" transform=\"translate(0 \(format(cursor)))\">")
    svg += ChartSVG.drawing(chart, in: layout)
    svg.append("</g>")
    cursor += layout.height + 8

    let key = legend(chart, top: cursor)
    svg += key.elements
    cursor += key.height + 8
    if let undrawn = undrawn(chart) {
      paragraph(undrawn, className: "caption undrawn", size: textSize)
      cursor += 4
    }
    paragraph(provenance(chart, generator: generator), className: "provenance", size: textSize - 1)
    let height = (cursor + padding - 4).rounded(.up)

    let header = [
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\""
        + " viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-labelledby=\"title\">",
      "<title id=\"title\">\(HTMLText.escaped(chart.title + ", " + chart.unit))</title>",
      "<style>\n" + css + "\n</style>",
      "<rect class=\"background\" x=\"0.5\" y=\"0.5\" width=\"\(format(width - 1))\""
        + " height=\"\(format(height - 1))\" rx=\"6\"/>",
    ]
    return (header + svg + ["</svg>"]).joined(separator: "\n") + "\n"
  }

  /// The legend of `chart`'s lines, its top at `top`, aligned with the plot: a swatch drawn as
  /// the line is (dashed and hollow for a reference row) and the line's label, in rows
  /// (``LegendLayout``); and the height its rows take.
  ///
  /// - Complexity: O(*b*²) for *b* lines.
  static func legend(_ chart: Chart, top: Double) -> (elements: [String], height: Double) {
    let lines = chart.drawnLines
    let layout = LegendLayout(
      labels: lines.map(label), width: Self.layout.width - Self.layout.left - padding,
      fontSize: textSize)
    var elements = [
      "<g class=\"legend\" transform=\"translate(\(format(Self.layout.left)) \(format(top)))\">"
    ]
    for (line, placement) in zip(lines, layout.placements) {
      let middle = placement.y + LegendLayout.rowHeight / 2
      let swatchEnd = placement.x + LegendLayout.swatchWidth
      elements.append(
        "<g class=\"entry \(line.colorClass)\(line.isReference ? " reference" : "")\""
          + " data-backend=\"\(HTMLText.escaped(line.backend))\">"
          + "<title>\(HTMLText.escaped(label(line)))</title>"
          + "<path d=\"M\(format(placement.x)) \(format(middle)) H\(format(swatchEnd))\"/>"
          + "<circle cx=\"\(format(placement.x + LegendLayout.swatchWidth / 2))\""
          + " cy=\"\(format(middle))\" r=\"3\"/>"
          + "<text x=\"\(format(swatchEnd + LegendLayout.swatchGap))\""
          + " y=\"\(format(middle + textSize * 0.35))\">\(HTMLText.escaped(placement.label))"
          + "</text></g>")
    }
    elements.append("</g>")
    return (elements, layout.height)
  }

  /// A line's entry in the legend: its name, `(floor)` after a reference row's, and the
  /// remark the page's legend has.
  static func label(_ line: Chart.Line) -> String {
    var notes: [String] = []
    if line.isReference { notes.append("floor") }
    if !line.remark.isEmpty { notes.append(line.remark) }
    return line.backend + (notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")")
  }

  /// The backends the chart has cells of but no line, because none has a value, with their
  /// cells' statuses: `No value at any size, so no line: swift-observations (capped).` The page
  /// says so under its legend too; `nil` if every line is drawn.
  static func undrawn(_ chart: Chart) -> String? {
    let lines = chart.lines.filter { $0.points.isEmpty }
    guard !lines.isEmpty else { return nil }
    let named = lines.map { line in
      let statuses = Set(line.cells.values.map(\.status.name)).sorted()
      return line.backend + (statuses.isEmpty ? "" : " (" + statuses.joined(separator: ", ") + ")")
    }
    return "No value at any " + (chart.dimension == .size ? "size" : "depth") + ", so no line: "
      + named.joined(separator: ", ") + "."
  }

  /// What the workload does, and what its pattern varies: `Cancel n observers in some order;
  /// cost per cancellation. Pattern random: cancel in a seeded random order.`
  static func description(_ key: Chart.Key) -> String {
    key.workload.summary
      + (key.pattern == .single ? "" : " Pattern \(key.pattern.rawValue): \(key.pattern.summary).")
  }

  /// The run the chart's cells come from: commit, day, machine, toolchain and allocator, each
  /// value once (sorted, so that the file does not depend on the order of its lines).
  static func provenance(_ chart: Chart, generator: String) -> String {
    let environments = chart.lines.flatMap { $0.cells.values.map(\.environment) }
    func values(_ value: (RunEnvironment) -> String) -> String {
      Set(environments.map(value)).sorted().joined(separator: ", ")
    }
    let day = values { String($0.date.prefix { $0 != "T" }) }
    return "Measured at commit \(values(\.commit)) on \(day): \(values(\.host))"
      + " (\(values(\.cpu)), \(values(\.coresText))), Swift \(values(\.swift))"
      + " \(values(\.build)) build, \(chart.key.allocator.rawValue) allocator."
      + " Drawn by \(generator)."
  }

  private static func format(_ value: Double) -> String { ChartSVG.format(value) }
}
