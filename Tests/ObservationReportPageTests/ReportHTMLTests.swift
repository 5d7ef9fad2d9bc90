import Foundation
import ObservationWorkloads
import ReportFixtures
import SweepFixtures
import Testing

@testable import ObservationHarness
@testable import ObservationReportPage
@testable import ObservationReports

@Suite("report: the HTML page")
struct ReportHTMLTests {
  /// The figure of `quantity` for `workload` (and `pattern`) in `tree`.
  static func figures(
    _ tree: HTMLTree, _ workload: Workload, quantity: String = "cost",
    pattern: WorkloadPattern? = nil
  ) -> [HTMLTree.Element] {
    tree.all("figure", classes: ["chart"]).filter {
      $0.attributes["data-workload"] == workload.rawValue
        && $0.attributes["data-quantity"] == quantity
        && (pattern == nil || $0.attributes["data-pattern"] == pattern!.rawValue)
    }
  }

  /// The series group of `backend` in `figure`'s SVG.
  static func series(_ figure: HTMLTree.Element, _ backend: String) -> HTMLTree.Element? {
    figure.all("g", classes: ["series"]).first { $0.attributes["data-backend"] == backend }
  }

  @Test("A section per workload, a cost chart per pattern, memory charts where measured")
  func chartsPerWorkload() throws {
    let path = PageFixtures.reportPath()
    let report = try Report.read(path)
    let tree = try PageFixtures.page(
      try PageFixtures.htmlReport(path))
    let workloads = tree.all("section", classes: ["workload"]).map {
      $0.attributes["data-workload"]
    }
    #expect(workloads == ["notify", "subscribe", "cancel"])
    for workload in [Workload.notify, .subscribe, .cancel] {
      let patterns = Set(
        report.results.filter { $0.cell.workload == workload }.map(\.cell.pattern))
      #expect(Self.figures(tree, workload).count == patterns.count, "\(workload)")
      // Every cell has an allocation count (zero included): one allocation chart per pattern.
      #expect(Self.figures(tree, workload, quantity: "allocations").count == patterns.count)
    }
    // Retained bytes: only subscribe measures them.
    #expect(Self.figures(tree, .subscribe, quantity: "retained-bytes").count == 1)
    #expect(Self.figures(tree, .notify, quantity: "retained-bytes").isEmpty)
    #expect(Self.figures(tree, .cancel, quantity: "retained-bytes").isEmpty)
    // The contents link to every section.
    let links = tree.all("nav").flatMap { $0.all("a") }.compactMap { $0.attributes["href"] }
    #expect(links == ["#workload-notify", "#workload-subscribe", "#workload-cancel"])
  }

  @Test("A path per backend with data, a point per measured size, the floor dashed")
  func seriesAndPoints() throws {
    let path = PageFixtures.reportPath()
    let results = try Report.read(path).results
    let tree = try PageFixtures.page(
      try PageFixtures.htmlReport(path))
    let notify = try #require(Self.figures(tree, .notify).first)
    let drawn = notify.all("g", classes: ["series"]).compactMap { $0.attributes["data-backend"] }
    #expect(drawn == PageFixtures.references + PageFixtures.backends)
    for backend in drawn {
      let group = try #require(Self.series(notify, backend))
      let measured = results.filter {
        $0.cell.backend == backend && $0.cell.workload == .notify && $0.status.isMeasured
      }
      let path = try #require(group.childElements("path").first)
      #expect(path.attributes["d"]?.hasPrefix("M") == true, "\(backend)")
      let circles = group.all("circle")
      #expect(circles.count == measured.count, "\(backend)")
      #expect(circles.compactMap { $0.attributes["data-n"] } == measured.map { String($0.cell.n) })
      // Each point's value and ratio are the report's, in its tooltip too.
      for (circle, result) in zip(circles, measured) {
        #expect(circle.attributes["data-value"] == csvNumber(result.cost))
        #expect(circle.attributes["data-ratio"] == csvNumber(result.ratioToLimit))
        let tooltip = circle.text
        #expect(tooltip.contains(readableNanoseconds(result.cost) + " per delivery"), "\(tooltip)")
        #expect(tooltip.contains(readableRatio(result.ratioToLimit!)), "\(tooltip)")
      }
      #expect(group.classes.contains("reference") == PageFixtures.references.contains(backend))
    }
    // The legend lists exactly the lines drawn.
    let legend = notify.all("li").compactMap { $0.attributes["data-backend"] }
    #expect(legend == drawn)
    // Every point lies inside the plot.
    let plot = try #require(notify.all("rect", classes: ["plot"]).first)
    let (left, top) = (Double(plot.attributes["x"]!)!, Double(plot.attributes["y"]!)!)
    let right = left + Double(plot.attributes["width"]!)!
    let bottom = top + Double(plot.attributes["height"]!)!
    for circle in notify.all("circle") {
      let x = try #require(Double(circle.attributes["cx"] ?? ""))
      let y = try #require(Double(circle.attributes["cy"] ?? ""))
      #expect(x >= left && x <= right && y >= top && y <= bottom)
    }
  }

  @Test("A capped cell is marked where its line stops, and said in the table with its reason")
  func cappedMarker() throws {
    let path = PageFixtures.reportPath()
    let results = try Report.read(path).results
    let capped = try #require(results.first { $0.status.name == "capped" })
    let tree = try PageFixtures.page(
      try PageFixtures.htmlReport(path))
    let notify = try #require(Self.figures(tree, .notify).first)
    let group = try #require(Self.series(notify, capped.cell.backend))
    let stops = group.all("g", classes: ["stop", "capped"])
    #expect(stops.map { $0.attributes["data-n"] } == [String(capped.cell.n)])
    #expect(stops.first?.text.contains(capped.status.reason) == true)
    // The cross sits at the height of the last point drawn.
    let lastPoint = try #require(group.all("circle").last)
    let cross = try #require(stops.first?.all("path", classes: ["trail"]).first?.attributes["d"])
    #expect(cross.hasSuffix(" " + lastPoint.attributes["cy"]!))
    // The table: a row per line, a column per size, the capped cell with a note.
    let table = try #require(notify.all("table", classes: ["values"]).first)
    let rows = table.all("tbody").flatMap { $0.childElements("tr") }
    #expect(rows.count == PageFixtures.references.count + PageFixtures.backends.count)
    for row in rows {
      #expect(row.childElements("td").count == PageFixtures.sizes.count)
    }
    let cappedCell = try #require(
      rows.first { $0.attributes["data-backend"] == capped.cell.backend }?.childElements("td")
        .first { $0.attributes["data-n"] == String(capped.cell.n) })
    #expect(cappedCell.classes.contains("capped"))
    let notes = notify.all("ol", classes: ["notes"]).flatMap { $0.all("li") }.map(\.text)
    #expect(notes == ["capped: " + capped.status.reason])
  }

  @Test("Zero allocations are drawn on a zero line, and a retained-bytes chart has its unit")
  func memoryCharts() throws {
    let path = PageFixtures.reportPath()
    let tree = try PageFixtures.page(
      try PageFixtures.htmlReport(path))
    let notify = try #require(Self.figures(tree, .notify, quantity: "allocations").first)
    #expect(notify.all("line", classes: ["zero"]).count == 1)
    let retained = try #require(
      Self.figures(tree, .subscribe, quantity: "retained-bytes").first)
    #expect(retained.all("figcaption").first?.text.contains("Retained memory") == true)
    #expect(retained.all("caption").first?.text.hasPrefix("retained bytes per observer") == true)
    #expect(retained.all("g", classes: ["series"]).count == PageFixtures.backends.count)
  }

  @Test("An instruction report is charted in instructions per operation, with its floor")
  func instructionReport() throws {
    let path = PageFixtures.instructionReportPath()
    let results = try Report.read(path).results
    let tree = try PageFixtures.page(
      try PageFixtures.htmlReport(path))
    let figure = try #require(Self.figures(tree, .notify).first)
    #expect(figure.attributes["data-metric"] == "instructions")
    #expect(figure.all("h3").first?.text == "Instructions: notify")
    let array = try #require(Self.series(figure, "array"))
    let expected = results.filter { $0.cell.backend == "array" }.map { csvNumber($0.cost) }
    #expect(array.all("circle").map { $0.attributes["data-value"] } == expected)
    #expect(array.all("circle").first?.text.contains("instructions per delivery") == true)
    #expect(Self.series(figure, "reference-c")?.classes.contains("reference") == true)
  }

  @Test("A nested depth study is charted against depth, a point per depth measured")
  func depthStudy() throws {
    let depths = [1, 2, 4, 8]
    var cells: [(Cell, CellRunner.Result?)] = []
    for (index, backend) in PageFixtures.backends.enumerated() {
      for depth in depths {
        let cell = Cell(
          allocator: .jemalloc, backend: backend, workload: .nested, pattern: .leaf, n: 1024,
          depth: depth)
        let result: CellRunner.Result =
          index == 1 && depth == depths.last!
          ? .timedOut : .finished(Rows.outcome(PageFixtures.samples(index, depth, base: 40)))
        cells.append((cell, result))
      }
    }
    let path = Rows.write(Rows.report(cells))
    let results = try Report.read(path).results
    let tree = try PageFixtures.page(
      try PageFixtures.htmlReport(path))
    let figures = Self.figures(tree, .nested)
    // One chart against depth; none of a single size.
    #expect(figures.map { $0.attributes["data-dimension"] } == ["depth"])
    let figure = try #require(figures.first)
    #expect(figure.attributes["data-n"] == "1024")
    for backend in PageFixtures.backends {
      let measured = results.filter { $0.cell.backend == backend && $0.status.isMeasured }
      let group = try #require(Self.series(figure, backend))
      #expect(
        group.all("circle").map { $0.attributes["data-depth"] }
          == measured.map {
            String($0.cell.depth)
          })
    }
    let stop = try #require(figure.all("g", classes: ["stop", "capped"]).first)
    #expect(stop.attributes["data-depth"] == String(depths.last!))
    let header = figure.all("thead").flatMap { $0.all("th") }.map(\.text)
    #expect(header == ["backend"] + depths.map { "depth \($0)" })
  }

  @Test("The conformance matrix: a cell per rule and backend, coloured, opening to its details")
  func conformanceGrid() throws {
    let rules = [("INIT-01", "replays"), ("DEL-01", "delivers"), ("CAN-01", "cancels")]
    let backends = ["linked-list", "array", "key-path"]
    let matrixPath = Rows.write(
      PageFixtures.matrixCSV(rules: rules.map { ($0.0, $0.1) }, backends: backends))
    let page = try PageFixtures.htmlReport(PageFixtures.reportPath(), conformance: matrixPath)
    let rows = try ConformanceMatrixCSV.rows(
      fromCSV: String(contentsOfFile: matrixPath, encoding: .utf8))
    let tree = try PageFixtures.page(page)
    let matrix = try #require(tree.all("table", classes: ["matrix"]).first)
    let headers = matrix.all("th", classes: ["backend"]).map(\.text)
    #expect(headers == backends)
    let bodyRows = matrix.all("tbody").flatMap { $0.childElements("tr") }
    #expect(bodyRows.map { $0.attributes["data-rule"] } == rules.map(\.0))
    let cells = matrix.all("td", classes: ["outcome"])
    #expect(cells.count == rules.count * backends.count)
    for row in bodyRows { #expect(row.childElements("td").count == backends.count) }
    // Each cell has its outcome's class and opens to its details.
    for (rowIndex, row) in bodyRows.enumerated() {
      for (column, cell) in row.childElements("td").enumerated() {
        let source = try #require(
          rows.first { $0.rule == rules[rowIndex].0 && $0.backend == backends[column] })
        let outcome = try #require(
          ConformanceSection.outcomes.first { $0.kind == source.outcome })
        #expect(cell.classes.contains(outcome.className))
        let details = try #require(cell.all("details").first)
        #expect(details.all("summary").first?.text == outcome.label)
        #expect(details.all("p").first?.text.hasSuffix(source.details) == true)
      }
    }
    // Every outcome kind the matrix has is counted in its legend.
    let legend = tree.all("ul", classes: ["outcome-legend"]).flatMap { $0.all("li") }
    #expect(legend.count == ConformanceOutcome.allCases.count)
  }

  @Test("With a baseline, compare's verdicts per cell, regressions first")
  func baseline() throws {
    let base = Rows.write(ComparedReports.report())
    // The report's first cell is a lone outlier (inconclusive, shown), a later backend
    // regresses: the page must put the regressions before it.
    let slower = Rows.write(
      ComparedReports.report(factors: ["array": 1.5], cellFactors: ["linked-list/1": 0.4]))
    let comparison = try Comparison(
      base: try Report.read(base).results, candidate: try Report.read(slower).results,
      threshold: Comparison.defaultThreshold(for: .time))
    #expect(!comparison.regressions.isEmpty)
    #expect(comparison.cells.first?.verdict == .inconclusive)
    let tree = try PageFixtures.page(
      try PageFixtures.htmlReport(slower, baseline: base))
    let section = try #require(tree.all("section").first { $0.attributes["id"] == "comparison" })
    let rows = section.all("tbody").flatMap { $0.childElements("tr") }
    #expect(rows.count == comparison.cells.count)
    let verdicts = rows.compactMap { row in
      Comparison.Verdict.allCases.first { row.classes.contains(ComparisonSection.className($0)) }
    }
    #expect(verdicts.count == rows.count)
    let regressions = comparison.regressions.count
    #expect(verdicts.prefix(regressions).allSatisfy { $0 == .regression })
    #expect(!verdicts.dropFirst(regressions).contains(.regression))
    #expect(
      Set(rows.prefix(regressions).compactMap { $0.attributes["data-cell"] })
        == Set(comparison.regressions.map(\.key)))
    // The section comes first, and the contents link to it.
    #expect(tree.all("nav").first?.all("a").first?.attributes["href"] == "#comparison")
  }

  @Test("The run's metadata is at the top, from the report")
  func metadata() throws {
    let path = PageFixtures.reportPath()
    let environment = try Report.read(path).results[0].environment
    let tree = try PageFixtures.page(
      try PageFixtures.htmlReport(path))
    let header = try #require(tree.all("header").first)
    let terms = header.all("dt").map(\.text)
    let values = header.all("dd").map(\.text)
    let fields = Dictionary(uniqueKeysWithValues: zip(terms, values))
    #expect(fields["commit"] == environment.commit)
    #expect(fields["date"] == environment.date)
    #expect(fields["toolchain"]?.contains(environment.swift) == true)
    #expect(fields["machine"]?.contains(environment.cpu) == true)
    #expect(fields["allocator"] == "jemalloc")
    #expect(header.text.contains(path))
  }

  @Test("The page loads nothing and lets only its own script run")
  func selfContained() throws {
    let html = try PageFixtures.htmlReport(PageFixtures.reportPath()).html
    let tree = try HTMLTree(html)
    let scripts = tree.all("script")
    #expect(scripts.count == 1)
    #expect(scripts.allSatisfy { $0.attributes["src"] == nil })
    #expect(tree.all("link").isEmpty && tree.all("img").isEmpty && tree.all("iframe").isEmpty)
    let policy = try #require(
      tree.all("meta").first { $0.attributes["http-equiv"] == "Content-Security-Policy" }?
        .attributes["content"])
    #expect(policy.contains("default-src 'none'"))
    let digest = Data(SHA256.digest(Array(scripts[0].text.utf8))).base64EncodedString()
    #expect(policy.contains("script-src 'sha256-\(digest)'"))
    // Nothing to fetch: no source, links only within the page, no URL in the style sheet.
    for element in tree.all() {
      #expect(element.attributes["src"] == nil, "\(element.name)")
      #expect(element.attributes["href"].map { $0.hasPrefix("#") } ?? true, "\(element.name)")
    }
    let style = try #require(tree.all("style").first?.text)
    #expect(!style.contains("url(") && !style.contains("@import"))
    // Every SVG scales with its container.
    for svg in tree.all("svg") {
      #expect(svg.attributes["viewbox"] != nil && svg.attributes["width"] == "100%")
    }
  }

  @Test("SHA-256 gives the standard's digests")
  func digest() {
    func hex(_ text: String) -> String {
      SHA256.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
    #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }
}

@Suite("report: hostile input")
struct ReportHTMLInputTests {
  static let hostileBackend =
    "<script>window.pwned=1</script>\" onmouseover=\"window.pwned=4\" ' & <b>bold</b>"
  static let hostileNote = "<img src=x onerror=\"window.pwned=2\"> note with <i>markup</i>"
  static let hostileTitle = "a title <script>window.pwned=3</script>"

  @Test("A hostile report shows its text as text and adds no element or attribute")
  func hostileReport() throws {
    let path = PageFixtures.reportPath(
      backendNames: [Self.hostileBackend, "array"], note: Self.hostileNote)
    let matrix = Rows.write(
      PageFixtures.matrixCSV(
        rules: [("R-01", Self.hostileTitle)], backends: [Self.hostileBackend],
        details: Self.hostileNote))
    let page = try PageFixtures.htmlReport(path, baseline: path, conformance: matrix)
    let html = page.html
    let tree = try HTMLTree(html)
    #expect(tree.all("script").count == 1)
    #expect(tree.all("img").isEmpty && tree.all("b").isEmpty && tree.all("i").isEmpty)
    let handlers = tree.all().flatMap { element in
      element.attributes.keys.filter { $0.hasPrefix("on") }.map { "\(element.name)[\($0)]" }
    }
    #expect(handlers.isEmpty, "\(handlers)")
    #expect(!html.contains("<script>window") && !html.contains("<img"))
    // The text reads as the report wrote it: in the legend, the table, the notes, the matrix.
    let text = tree.root.text
    #expect(text.contains(Self.hostileBackend))
    #expect(text.contains(Self.hostileNote))
    #expect(text.contains(Self.hostileTitle))
    let notify = try #require(ReportHTMLTests.figures(tree, .notify).first)
    #expect(notify.all("li").contains { $0.text == Self.hostileBackend })
    #expect(notify.all("g").contains { $0.attributes["data-backend"] == Self.hostileBackend })
    let headers = tree.all("table", classes: ["matrix"]).flatMap {
      $0.all("th", classes: ["backend"])
    }
    #expect(headers.map(\.text) == [Self.hostileBackend])
  }
}
