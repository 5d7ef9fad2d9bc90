import Foundation
import ObservatoryBuiltInRows
import ReportFixtures
import SweepFixtures
import TestTraits
import Testing

@testable import ObservationHarness
@testable import ObservationReportPage
@testable import ObservationReports

@Suite("report: trends across reports")
struct TrendPageTests {
  /// A report of `ComparedReports.report`'s notify cells, of `commit` on `date`, measured on
  /// `host` with `cores`; each backend's costs multiplied by its factor, and every cost, the
  /// reference rows' too, by `speed`.
  static func source(
    _ commit: String, _ date: String, host: String = "host", cores: Int = 2,
    factors: [String: Double] = [:], speed: Double = 1
  ) throws -> TrendPage.Source {
    var environment = Rows.environment
    environment.commit = commit
    environment.date = date + "T10:00:00Z"
    environment.host = host
    environment.cores = cores
    var scaled: [String: Double] = [:]
    for backend in ComparedReports.backends { scaled[backend] = (factors[backend] ?? 1) * speed }
    let path = Rows.write(
      ComparedReports.report(factors: scaled, machine: speed, environment: environment))
    return TrendPage.Source(path: path, report: try Report.read(path))
  }

  static func values(_ figure: HTMLTree.Element, _ line: String) -> [Double] {
    (ReportHTMLTests.series(figure, line)?.all("circle") ?? []).compactMap {
      $0.attributes["data-value"].flatMap(Double.init)
    }
  }

  /// Each drawn line's colour class, by backend: the `c…` or `r…` class of its series.
  static func colorClasses(_ html: String) throws -> [String: Set<String>] {
    var classes: [String: Set<String>] = [:]
    for series in try HTMLTree(html).all("g", classes: ["series"]) {
      guard let backend = series.attributes["data-backend"] else { continue }
      let names = (series.attributes["class"] ?? "").split(separator: " ").map(String.init)
      for name in names where name.first == "c" || name.first == "r" {
        if name.dropFirst().allSatisfy(\.isNumber) { classes[backend, default: []].insert(name) }
      }
    }
    return classes
  }

  @Test("A backend has one colour on the report page and on the trend page, whatever else is drawn")
  func stableColors() throws {
    // The tool's measured rows: the catalogue's backends and the measured-only ones.
    #expect(
      ChartStyle.builtInBackends
        == MeasuredBackend.builtIns.map(\.name).filter { !ReferenceRow.isReference($0) })
    #expect(ChartStyle.lineColors.count >= ChartStyle.builtInBackends.count)
    let results = PackageDirectory.appending("Results")
    let paths = try FileManager.default.contentsOfDirectory(atPath: results.path)
      .filter { $0.hasPrefix("20") && $0.hasSuffix(".csv") }.sorted()
      .map { results.appendingPathComponent($0).path }
    let page = try Self.colorClasses(
      HTMLReport(report: try Report.read(paths.last!), source: paths.last!).html)
    let trends = try Self.colorClasses(
      TrendPage(
        sources: try paths.map { TrendPage.Source(path: $0, report: try Report.read($0)) },
        n: 1024, relative: false
      ).html)
    #expect(page["dense"]?.count == 1)
    for (backend, colors) in trends {
      #expect(colors.count == 1, "\(backend): \(colors)")
      if let onPage = page[backend] { #expect(onPage == colors, "\(backend)") }
    }
    // A backend of another package takes a colour no built-in of its page holds.
    let mixed = ChartSection.colorClasses(
      ["linked-list", "slot-array", "array"], references: ["reference-c"])
    #expect(Set(mixed.values).count == 3)
    #expect(mixed["linked-list"] == "c0" && mixed["array"] == "c1")
  }

  @Test("The axis marks where the build changed between two reports of one machine")
  func buildChangeMarked() throws {
    let results = PackageDirectory.appending("Results")
    let paths = try FileManager.default.contentsOfDirectory(atPath: results.path)
      .filter { $0.hasPrefix("20") && $0.hasSuffix(".csv") }.sorted()
      .map { results.appendingPathComponent($0).path }
    let page = TrendPage(
      sources: try paths.map { TrendPage.Source(path: $0, report: try Report.read($0)) },
      n: 1024, relative: false)
    let tree = try HTMLTree(page.html)
    var marked: [String] = []
    for figure in tree.all("figure", classes: ["chart"]) {
      let title = figure.all("h3").first?.text ?? ""
      for mark in figure.all("g", classes: ["change"]) {
        marked.append(title)
        // The first report of each machine with the Swift runtime linked in: the Xeon's fourth,
        // be36b73, and the AMD machine's fifth, f9a5a0b.
        #expect(mark.attributes["data-run"] == (title.contains("Xeon") ? "3" : "4"), "\(title)")
        #expect(
          mark.all("title").first?.text == "build release → release-static-stdlib", "\(title)")
      }
    }
    // Each workload's chart of each 2-core machine, once.
    #expect(marked.count == 6, "\(marked)")
    #expect(marked.filter { $0.contains("Xeon") && $0.contains("2 cores") }.count == 3, "\(marked)")
    #expect(
      marked.filter { $0.contains("AMD EPYC") && $0.contains("2 cores") }.count == 3, "\(marked)")
  }

  @Test("One machine: a point per report, oldest first, and a step where a backend slowed down")
  func oneMachine() throws {
    // Given newest first: the page orders the reports by date.
    let page = TrendPage(
      sources: [
        try Self.source("ccc", "2026-11-27", factors: ["array": 2]),
        try Self.source("aaa", "2026-11-25"), try Self.source("bbb", "2026-11-26"),
      ], n: 1024, relative: false)
    let tree = try HTMLTree(page.html)
    let figures = tree.all("figure", classes: ["chart"])
    #expect(figures.count == 1, "the fixture has notify cells only")
    let figure = try #require(figures.first)
    #expect(figure.attributes["data-dimension"] == "run")
    let columns = figure.all("th").filter { $0.attributes["scope"] == "col" }.map(\.text)
    #expect(columns.suffix(3) == ["aaa 2026-11-25", "bbb 2026-11-26", "ccc 2026-11-27"])
    let array = Self.values(figure, "array")
    #expect(array.count == 3)
    #expect(array[1] == array[0])
    #expect(abs(array[2] / array[0] - 2) < 1e-9, "\(array)")
    // The reference rows are drawn dashed, under the backends.
    let series = figure.all("g", classes: ["series"])
    #expect(series.first?.classes.contains("reference") == true)
    // Unchanged backends draw flat lines.
    #expect(Set(Self.values(figure, "linked-list")).count == 1)
  }

  @Test("Two machines: a chart each, side by side; no line joins them")
  func twoMachines() throws {
    let page = TrendPage(
      sources: [
        try Self.source("aaa", "2026-11-25", host: "small"),
        try Self.source("aaa", "2026-11-25", host: "large", cores: 16, speed: 0.5),
        try Self.source("bbb", "2026-11-26", host: "small"),
        try Self.source("bbb", "2026-11-26", host: "large", cores: 16, speed: 0.5),
      ], n: 1024, relative: false)
    let tree = try HTMLTree(page.html)
    let grid = try #require(tree.all("div", classes: ["machines"]).first)
    let figures = grid.all("figure", classes: ["chart"])
    #expect(figures.count == 2)
    let titles = figures.compactMap { $0.all("h3").first?.text }
    #expect(titles.contains { $0.hasSuffix("on large (cpu, model, 16 cores)") }, "\(titles)")
    #expect(titles.contains { $0.hasSuffix("on small (cpu, model, 2 cores)") }, "\(titles)")
    for figure in figures {
      #expect(Self.values(figure, "array").count == 2)
    }
  }

  @Test("--relative: one chart, each machine's lines apart, costs in its own reference rows")
  func relative() throws {
    let page = TrendPage(
      sources: [
        try Self.source("aaa", "2026-11-25", host: "small"),
        try Self.source("aaa", "2026-11-25", host: "large", cores: 16, speed: 0.5),
      ], n: 1024, relative: true)
    let tree = try HTMLTree(page.html)
    let figures = tree.all("figure", classes: ["chart"])
    #expect(figures.count == 1)
    let figure = try #require(figures.first)
    #expect(figure.attributes["data-quantity"] == "relative-cost")
    let small = Self.values(figure, "array · small")
    let large = Self.values(figure, "array · large")
    #expect(small.count == 1 && large.count == 1)
    // Twice as fast a machine, every cost halved: the same relative cost.
    #expect(abs(small[0] / large[0] - 1) < 1e-6, "\(small) \(large)")
  }

  @Test("A size no report has, or a relative trend without reference rows, is refused")
  func refusals() throws {
    let sources = [try Self.source("aaa", "2026-11-25"), try Self.source("bbb", "2026-11-26")]
    #expect(throws: ReportPageError.self) {
      try TrendPage(sources: sources, n: 3, relative: false).validate()
    }
    do {
      try TrendPage(sources: sources, n: 3, relative: false).validate()
    } catch let error as ReportPageError {
      #expect(
        error.description.contains("no report has notify, subscribe or random cancel at n = 3"))
    }
    var environment = Rows.environment
    environment.commit = "ccc"
    let bare = Rows.write(ComparedReports.report(references: false, environment: environment))
    let withoutReferences = TrendPage.Source(path: bare, report: try Report.read(bare))
    #expect(throws: ReportPageError.self) {
      try TrendPage(sources: sources + [withoutReferences], n: 1024, relative: true).validate()
    }
  }
}
