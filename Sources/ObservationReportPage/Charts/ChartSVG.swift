import Foundation
import ObservationReports

/// Draws a ``Chart`` as SVG: log-log axes with their ticks, a path and a circle per point for
/// each backend (each circle titled with its value and ratio to the limit), the reference rows
/// dashed, and a cross where a line stops because its next size was capped, invalid or failed.
///
/// The page's drawing has a `viewBox` and no fixed size, so it scales to its container; its
/// text is sized for a container from a phone's width to about 600 pixels. A standalone chart
/// file (``StandaloneChartSVG``) draws the same elements in a wider ``Layout`` of its own.
enum ChartSVG {
  /// About the width of a character, and of a comma, at the charts' font size, for spacing
  /// the size labels.
  static let digitWidth = 6.9
  static let commaWidth = 3.5

  /// The SVG element of `chart` in the page.
  ///
  /// - Complexity: O(*p* + *t*) for *p* points and *t* ticks.
  static func render(_ chart: Chart) -> String {
    let layout = Layout.page
    let titleID = chart.identifier + "-title"
    let svg =
      [
        "<svg viewBox=\"0 0 \(format(layout.width)) \(format(layout.height))\" width=\"100%\""
          + " preserveAspectRatio=\"xMidYMid meet\" role=\"img\" aria-labelledby=\"\(titleID)\""
          + " xmlns=\"http://www.w3.org/2000/svg\">",
        "<title id=\"\(titleID)\">\(HTMLText.escaped(chart.title + ", " + chart.unit))</title>",
      ] + drawing(chart, in: layout) + ["</svg>"]
    return svg.joined(separator: "\n")
  }

  /// The elements that draw `chart` in a box of `layout`'s size whose top left corner is the
  /// origin: the plot's frame, the axes and their titles, and a group per line drawn.
  ///
  /// - Complexity: O(*p* + *t*) for *p* points and *t* ticks.
  static func drawing(_ chart: Chart, in layout: Layout) -> [String] {
    let width = layout.width
    let height = layout.height
    let left = layout.left
    let right = layout.right
    let top = layout.top
    let lines = chart.drawnLines
    let values = lines.flatMap { $0.points.map(\.value) }
    let hasZero = chart.quantity.allowsZero && values.contains(0)
    let plotBottom = height - layout.bottom
    let yAxis = LogAxis(
      values: values, start: hasZero ? plotBottom - layout.zeroBand : plotBottom, end: top,
      padded: true)
    let xAxis = LogAxis(
      values: chart.positions.map(Double.init), start: left, end: width - right, padded: false)
    // A trend's reports are evenly spaced, each in the middle of its share of the width.
    let band = (width - right - left) / Double(max(1, chart.positions.count))
    let slots = Dictionary(
      chart.positions.enumerated().map { ($0.element, $0.offset) },
      uniquingKeysWith: { first, _ in first })
    func y(_ value: Double) -> Double { value > 0 ? yAxis.position(value) : plotBottom }
    func x(_ position: Int) -> Double {
      guard !chart.dimension.isLogarithmic else { return xAxis.position(Double(position)) }
      return left + (Double(slots[position] ?? 0) + 0.5) * band
    }
    let attribute = "data-" + chart.dimension.rawValue

    var svg = [
      "<rect class=\"plot\" x=\"\(format(left))\" y=\"\(format(top))\""
        + " width=\"\(format(width - left - right))\" height=\"\(format(plotBottom - top))\"/>"
    ]
    svg.append("<g class=\"axis y\">")
    for tick in yAxis.ticks {
      let position = y(tick)
      svg.append(
        "<line x1=\"\(format(left))\" x2=\"\(format(width - right))\" y1=\"\(format(position))\""
          + " y2=\"\(format(position))\"/><text x=\"\(format(left - 6))\""
          + " y=\"\(format(position + 4))\" text-anchor=\"end\">\(NumberText.tick(tick))</text>")
    }
    if hasZero {
      svg.append(
        "<line class=\"zero\" x1=\"\(format(left))\" x2=\"\(format(width - right))\""
          + " y1=\"\(format(plotBottom))\" y2=\"\(format(plotBottom))\"/><text"
          + " x=\"\(format(left - 6))\" y=\"\(format(plotBottom + 4))\""
          + " text-anchor=\"end\">0</text>")
    }
    svg.append("</g>")
    let usesBinaryPrefix =
      chart.dimension == .size
      && chart.positions.contains { NumberText.compactSize($0) != NumberText.grouped($0) }
    svg.append("<g class=\"axis x\">")
    var lastLabelEnd = -Double.infinity
    for value in chart.positions {
      let position = x(value)
      svg.append(
        "<line x1=\"\(format(position))\" x2=\"\(format(position))\" y1=\"\(format(top))\""
          + " y2=\"\(format(plotBottom))\"/>")
      // A label that would overlap the one before it is left out; the table has every size.
      let label =
        chart.dimension == .size
        ? NumberText.compactSize(value)
        : chart.dimension == .run
          // The commit alone on the axis; the table and the tooltips add the date.
          ? HTMLText.escaped(String(chart.label(value).prefix { $0 != " " }))
          : NumberText.grouped(value)
      let commas = label.filter { $0 == "," }.count
      let halfWidth =
        (Double(label.count - commas) * digitWidth + Double(commas) * commaWidth) / 2
      let center = min(max(position, halfWidth + 2), width - halfWidth - 2)
      guard center - halfWidth > lastLabelEnd + 4 else { continue }
      lastLabelEnd = center + halfWidth
      svg.append(
        "<text x=\"\(format(center))\" y=\"\(format(plotBottom + 17))\""
          + " text-anchor=\"middle\">\(label)</text>")
    }
    svg.append("</g>")
    // Where the build, the toolchain or the allocator changed: a line between the two reports,
    // named at the plot's top, the change in full in its tooltip.
    for position in chart.positions {
      guard let change = chart.changes[position], let slot = slots[position], slot > 0 else {
        continue
      }
      let boundary = left + Double(slot) * band
      svg.append(
        "<g class=\"change\" data-run=\"\(position)\"><title>\(HTMLText.escaped(change))</title>"
          + "<line x1=\"\(format(boundary))\" x2=\"\(format(boundary))\" y1=\"\(format(top))\""
          + " y2=\"\(format(plotBottom + 6))\"/><text x=\"\(format(boundary + 3))\""
          + " y=\"\(format(top + 11))\">\(HTMLText.escaped(String(change.prefix { $0 != " " })))</text></g>"
      )
    }
    svg.append(
      "<text class=\"axis-title\" x=\"\(format((left + width - right) / 2))\""
        + " y=\"\(format(height - 6))\" text-anchor=\"middle\">"
        + chart.dimension.axisTitle
        + (chart.dimension.isLogarithmic
          ? " (log scale" + (usesBinaryPrefix ? "; Ki = 1,024, Mi = 1,048,576" : "") + ")" : "")
        + "</text>")
    svg.append(
      "<text class=\"axis-title\" transform=\"translate(14 \(format((top + plotBottom) / 2)))"
        + " rotate(-90)\" text-anchor=\"middle\">\(HTMLText.escaped(chart.unit)) (log scale)</text>"
    )

    for line in lines {
      let name = HTMLText.escaped(line.backend)
      svg.append(
        "<g class=\"series \(line.colorClass)\(line.isReference ? " reference" : "")\""
          + " data-backend=\"\(name)\" data-points=\"\(line.points.count)\">")
      svg.append("<path d=\"\(path(line, x: x, y: y))\"><title>\(name)</title></path>")
      for point in line.points {
        svg.append(
          "<circle cx=\"\(format(x(point.x)))\" cy=\"\(format(y(point.value)))\" r=\"3\""
            + " \(attribute)=\"\(point.x)\" data-value=\"\(NumberText.value(point.value))\""
            + (point.ratio.map { " data-ratio=\"\(NumberText.value($0))\"" } ?? "")
            + "><title>\(HTMLText.escaped(tooltip(point, line: line, chart: chart)))</title>"
            + "</circle>")
      }
      for stop in line.stops {
        guard let lastValue = stop.lastValue else { continue }
        let first = stop.positions[0]
        let markerX = x(first)
        let markerY = y(lastValue)
        let from = line.points.last { $0.x < first }.map { x($0.x) } ?? markerX
        svg.append(
          "<g class=\"stop \(stop.status)\" \(attribute)=\"\(first)\"><title>"
            + HTMLText.escaped(stopTooltip(stop, line: line, chart: chart)) + "</title>"
            + "<path class=\"trail\" d=\"M\(format(from)) \(format(markerY))"
            + " L\(format(markerX)) \(format(markerY))\"/><path class=\"cross\""
            + " d=\"M\(format(markerX - 5)) \(format(markerY - 5))"
            + " L\(format(markerX + 5)) \(format(markerY + 5)) M\(format(markerX - 5))"
            + " \(format(markerY + 5)) L\(format(markerX + 5)) \(format(markerY - 5))\"/></g>")
      }
      svg.append("</g>")
    }
    return svg
  }

  /// The line's path: one subpath per run of consecutive points, broken where a stop lies
  /// between two points.
  private static func path(
    _ line: Chart.Line, x: (Int) -> Double, y: (Double) -> Double
  ) -> String {
    var commands: [String] = []
    var previous: Int?
    for point in line.points {
      let broken =
        previous.map { before in
          line.stops.contains { $0.positions[0] > before && $0.positions[0] < point.x }
        } ?? true
      commands.append((broken ? "M" : "L") + "\(format(x(point.x))) \(format(y(point.value)))")
      previous = point.x
    }
    return commands.joined(separator: " ")
  }

  /// What a point's tooltip says: the backend, the size, the value with its unit (a time in the
  /// unit that fits), and the ratio to the limit.
  static func tooltip(_ point: Chart.Point, line: Chart.Line, chart: Chart) -> String {
    var text =
      "\(line.backend), \(chart.label(point.x)): \(chart.valueWithUnit(point.value))"
    if let ratio = point.ratio { text += ", \(NumberText.ratio(ratio)) the limit" }
    return text
  }

  /// What a stop's tooltip says: the backend, the sizes without a value and why.
  static func stopTooltip(_ stop: Chart.Stop, line: Chart.Line, chart: Chart) -> String {
    let positions = stop.positions.map { chart.label($0) }.joined(separator: ", ")
    let reasons = Set(stop.cells.map(\.status.reason)).filter { !$0.isEmpty }.sorted()
    return "\(line.backend): \(stop.status) at \(positions)"
      + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")")
  }

  /// A coordinate as the drawing writes it: one decimal.
  static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
