import Foundation
import ObservationWorkloads
import ReportFixtures
import SweepFixtures
import Testing

@testable import ObservationHarness
@testable import ObservationReportPage
@testable import ObservationReports

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A standalone SVG chart parsed as XML, for checks of its structure.
struct SVGDocument {
  /// The root `svg` element.
  let root: XMLElement

  /// XML that is not well-formed: where the strict parser stopped.
  struct MalformedXML: Error, CustomStringConvertible {
    var line: Int
    var column: Int
    var description: String { "not well-formed XML at line \(line), column \(column)" }
  }

  /// Parses `text`; throws ``MalformedXML`` if it is not well-formed.
  ///
  /// `XMLParser` decides: swift-corelibs-foundation's `XMLDocument` parses in libxml2's
  /// recovering mode, and reads a stray `&`, an unclosed tag or a forbidden character without
  /// an error.
  init(_ text: String) throws {
    let parser = XMLParser(data: Data(text.utf8))
    guard parser.parse() else {
      throw MalformedXML(line: parser.lineNumber, column: parser.columnNumber)
    }
    let document = try XMLDocument(xmlString: text, options: [])
    root = try #require(document.rootElement())
  }

  /// Every element of the document, the root first, in document order.
  var elements: [XMLElement] {
    var found: [XMLElement] = []
    func visit(_ element: XMLElement) {
      found.append(element)
      for case let child as XMLElement in element.children ?? [] { visit(child) }
    }
    visit(root)
    return found
  }

  /// The elements named `name` having every class in `classes`, in document order.
  func all(_ name: String, classes: Set<String> = []) -> [XMLElement] {
    elements.filter { $0.localName == name && classes.isSubset(of: $0.classes) }
  }
}

extension XMLElement {
  /// The value of the attribute `name`, if it has one.
  ///
  /// Matched by the attributes' names: `attribute(forName:)` finds none on an element in a
  /// namespace with swift-corelibs-foundation.
  subscript(_ name: String) -> String? {
    (attributes ?? []).first { $0.name == name }?.stringValue
  }

  /// Its classes.
  var classes: Set<String> { Set((self["class"] ?? "").split(separator: " ").map(String.init)) }

  /// Its descendants named `name`, in document order.
  func descendants(_ name: String) -> [XMLElement] {
    (children ?? []).compactMap { $0 as? XMLElement }.flatMap {
      ($0.localName == name ? [$0] : []) + $0.descendants(name)
    }
  }
}

@Suite("report: the standalone SVG charts")
struct SVGChartTests {
  /// The backends with a measured cost in `selection`'s cells of `results`, in report order.
  static func measured(_ results: [CellResult], _ selection: SVGChart.Selection) -> [String] {
    var backends: [String] = []
    for result in results
    where result.cell.workload == selection.workload && result.cell.pattern == selection.pattern
      && result.cost != nil && !backends.contains(result.cell.backend)
    {
      backends.append(result.cell.backend)
    }
    return backends
  }

  @Test("notify, subscribe and cancel in random order, under the names the README links")
  func readmeSelection() throws {
    let charts = try PageFixtures.readmeCharts(PageFixtures.reportPath())
    #expect(
      charts.map(\.selection.fileName) == ["notify.svg", "subscribe.svg", "cancel-random.svg"])
    let titles = try charts.map { try SVGDocument($0.svg).all("text", classes: ["heading"]) }
    #expect(
      titles.map { $0.first?.stringValue } == [
        "Time: notify · ns per delivery", "Time: subscribe · ns per subscription",
        "Time: cancel (random) · ns per cancellation",
      ])
  }

  @Test("Each file parses as XML: a path per backend with data, a legend entry per line drawn")
  func linesAndLegend() throws {
    let path = PageFixtures.reportPath()
    let results = try Report.read(path).results
    let page = try PageFixtures.page(
      try PageFixtures.htmlReport(path))
    for chart in try PageFixtures.readmeCharts(path) {
      let svg = try SVGDocument(chart.svg)
      #expect(svg.root.localName == "svg")
      #expect(Double(svg.root["width"] ?? "") == 720)
      #expect((Double(svg.root["height"] ?? "") ?? 0) > 400)
      let series = svg.all("g", classes: ["series"])
      let drawn = series.compactMap { $0["data-backend"] }
      // The floor first, as the page draws it.
      let measured = Self.measured(results, chart.selection)
      let expected =
        measured.filter(PageFixtures.references.contains)
        + measured.filter { !PageFixtures.references.contains($0) }
      #expect(drawn == expected, "\(chart.selection)")
      for group in series {
        let line = try #require(group.descendants("path").first)
        #expect(line["d"]?.hasPrefix("M") == true)
        #expect(group.descendants("circle").count == Int(group["data-points"] ?? ""))
      }
      let entries = svg.all("g", classes: ["entry"])
      #expect(entries.compactMap { $0["data-backend"] } == drawn)
      for entry in entries {
        let backend = entry["data-backend"] ?? ""
        let isReference = PageFixtures.references.contains(backend)
        #expect(entry.classes.contains("reference") == isReference)
        // The asynchronous floor's legend says so: `(floor, asynchronous)`.
        let remark = backend == ReferenceRow.asyncTasks.rawValue ? ", asynchronous" : ""
        #expect(
          entry.descendants("text").first?.stringValue
            == backend + (isReference ? " (floor\(remark))" : ""))
        #expect(entry.descendants("path").count == 1 && entry.descendants("circle").count == 1)
      }
      // A backend has the colour it has in the page.
      let figure = try #require(
        ReportHTMLTests.figures(page, chart.selection.workload, pattern: chart.selection.pattern)
          .first)
      for group in series {
        let backend = try #require(group["data-backend"])
        let pageSeries = try #require(ReportHTMLTests.series(figure, backend))
        #expect(group.classes == pageSeries.classes, "\(backend)")
      }
    }
  }

  @Test("Each file holds its own style and loads nothing: no script, handler or reference")
  func selfContained() throws {
    for chart in try PageFixtures.readmeCharts(PageFixtures.reportPath()) {
      #expect(chart.svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "))
      let svg = try SVGDocument(chart.svg)
      #expect(svg.root.uri == "http://www.w3.org/2000/svg")
      let names = Set(svg.elements.compactMap(\.localName))
      #expect(names.isDisjoint(with: ["script", "foreignObject", "image", "a", "iframe"]))
      for element in svg.elements {
        for attribute in element.attributes ?? [] {
          let name = attribute.localName ?? ""
          #expect(!name.lowercased().hasPrefix("on"), "\(element.name ?? "")[\(name)]")
          #expect(name != "href", "\(element.name ?? "")[\(name)]")
          #expect(!(attribute.stringValue ?? "").contains("url("))
        }
      }
      let style = try #require(svg.all("style").first?.stringValue)
      #expect(!style.contains("url(") && !style.contains("@import"))
      #expect(style.contains(ChartStyle.colorRules) && style.contains(ChartStyle.drawingRules))
      // A background of its own: the file reads on a dark page too.
      #expect(svg.all("rect", classes: ["background"]).count == 1)
    }
  }

  @Test("A hostile backend name is text in the file, which stays well-formed XML")
  func hostileNames() throws {
    let hostile = "<script>alert(1)</script>\" onload=\"alert(2)\" ' & <b>bold</b>\u{FFFE}"
    let path = PageFixtures.reportPath(backendNames: [hostile, "array"])
    for chart in try PageFixtures.readmeCharts(path) {
      #expect(!chart.svg.contains("<script") && !chart.svg.contains("<b>"))
      let svg = try SVGDocument(chart.svg)
      #expect(svg.all("script").isEmpty && svg.all("b").isEmpty)
      let shown = hostile.replacingOccurrences(of: "\u{FFFE}", with: "\u{FFFD}")
      let entry = try #require(
        svg.all("g", classes: ["entry"]).first { $0["data-backend"] == shown })
      #expect(entry.descendants("text").first?.stringValue == shown)
      #expect(svg.all("g", classes: ["series"]).contains { $0["data-backend"] == shown })
      for element in svg.elements {
        #expect(!(element.attributes ?? []).contains { $0.localName == "onload" })
      }
    }
  }

  @Test("Long names take one column each, none overlaps, and the file grows to hold them")
  func longNames() throws {
    let long = (1...6).map { "a-backend-with-a-name-long-enough-to-fill-half-a-row-\($0)" }
    let short = (1...6).map { "b\($0)" }
    let width = 632.0
    let wide = LegendLayout(labels: long, width: width, fontSize: 12)
    let narrow = LegendLayout(labels: short, width: width, fontSize: 12)
    #expect(narrow.columns == short.count && narrow.height == LegendLayout.rowHeight)
    #expect(wide.columns < 3 && wide.height >= 3 * LegendLayout.rowHeight)
    for layout in [wide, narrow] {
      let spans = layout.placements.map { placement in
        (
          row: placement.y,
          from: placement.x,
          to: placement.x + LegendLayout.swatchWidth + LegendLayout.swatchGap
            + TextWidth.of(placement.label, fontSize: 12)
        )
      }
      for span in spans { #expect(span.from >= 0 && span.to <= width) }
      for (index, first) in spans.enumerated() {
        for second in spans.dropFirst(index + 1) where second.row == first.row {
          #expect(first.to <= second.from || second.to <= first.from)
        }
      }
    }
    // A name wider than the row is shortened; its entry keeps the whole name as its title.
    let endless = String(repeating: "very-long-name-", count: 20)
    let shortened = try #require(
      LegendLayout(labels: [endless], width: width, fontSize: 12).placements.first?.label)
    #expect(shortened.hasSuffix("…") && shortened.count < endless.count)
    let path = PageFixtures.reportPath(backendNames: [long[0], endless])
    let plain = try SVGDocument(try PageFixtures.readmeCharts(PageFixtures.reportPath())[0].svg)
    let svg = try SVGDocument(try PageFixtures.readmeCharts(path)[0].svg)
    let entry = try #require(
      svg.all("g", classes: ["entry"]).first { $0["data-backend"] == endless })
    #expect(entry.descendants("title").first?.stringValue == endless)
    #expect(entry.descendants("text").first?.stringValue?.hasSuffix("…") == true)
    #expect(
      (Double(svg.root["height"] ?? "") ?? 0) > (Double(plain.root["height"] ?? "") ?? 0))
    #expect(svg.root["viewBox"] == "0 0 720 \(svg.root["height"] ?? "")")
  }

  @Test("A backend without a value at any size has no line, and the file says why")
  func undrawnBackend() throws {
    var cells = PageFixtures.cells()
    for n in PageFixtures.sizes {
      cells.append((Rows.plan("slow", n: n), .timedOut))
    }
    let path = Rows.write(Rows.report(cells))
    let svg = try SVGDocument(try PageFixtures.readmeCharts(path)[0].svg)
    #expect(!svg.all("g", classes: ["series"]).contains { $0["data-backend"] == "slow" })
    #expect(!svg.all("g", classes: ["entry"]).contains { $0["data-backend"] == "slow" })
    let note = svg.all("text", classes: ["undrawn"]).compactMap(\.stringValue).joined(
      separator: " ")
    #expect(note == "No value at any size, so no line: slow (capped).")
  }

  @Test("An instruction report is drawn in instructions")
  func instructionReport() throws {
    let path = PageFixtures.instructionReportPath()
    let charts = try SVGChart.draw(
      [SVGChart.Selection(.notify)], of: try Report.read(path), source: path,
      generator: "observatory report --charts")
    let heading = try SVGDocument(charts[0].svg).all("text", classes: ["heading"]).first
    #expect(heading?.stringValue == "Instructions: notify · instructions per delivery")
  }

  @Test("A report without one of the charts is refused in one line naming what is missing")
  func missingWorkload() throws {
    // No subscribe, and cancel only oldest-first.
    var cells: [(Cell, CellRunner.Result?)] = []
    for n in PageFixtures.sizes {
      cells.append((Rows.plan("array", n: n), .finished(Rows.outcome([10, 11, 12]))))
      var cancel = Rows.plan("array", workload: .cancel, n: n)
      cancel.pattern = .fifo
      cells.append((cancel, .finished(Rows.outcome([10, 11, 12]))))
      // Subscribe measured nowhere: every cell timed out.
      cells.append((Rows.plan("array", workload: .subscribe, n: n), .timedOut))
    }
    let path = Rows.write(Rows.report(cells))
    #expect(
      throws: ReportPageError(
        "\(path): no measured cost of subscribe or cancel (random) to chart (the charts are"
          + " notify, subscribe, cancel (random))")
    ) {
      try PageFixtures.readmeCharts(path)
    }
  }
}
