import Foundation
import ObservationReports
import ObservationWorkloads

/// Several reports as one page of trends: per workload of the front page (notify, subscribe,
/// random cancel) and one size, each backend's cost in each report, oldest first, so that a
/// regression or a win shows as a step.
///
/// The reports are read as one ``ReportSeries`` (the main job followed, each run once, grouped
/// by ``Machine``); its reports of one machine and one metric make one series. A
/// chart never mixes two machines in one line: several machines give one chart per machine,
/// side by side, each against its own reports; or, with `relative`, one chart in which each
/// cost is divided by its report's own reference rows (the geometric mean of their `notify`
/// costs at the size drawn, `ReportSeries.machineSpeed(of:n:)`) and each machine keeps
/// lines of its own (`array · xeon-16`).
///
/// It takes reports already read and gives the page's text; the command line reads the files
/// and writes the page (`observatory report A.csv B.csv --output trends.html`):
///
/// ```swift
/// let paths = [
///   "Results/2026-11-25_f4e3f81e7379_vm.csv", "Results/2026-11-27_8c4b037a461e_vm.csv",
/// ]
/// let sources = try paths.map { TrendPage.Source(path: $0, report: try Report.read($0)) }
/// let html = TrendPage(sources: sources, n: 1024, relative: false).html
/// ```
package struct TrendPage {
  /// One report of the trend: where it was read from, and its rows.
  package struct Source {
    /// The report's file, as given.
    package var path: String
    /// The report's rows.
    package var report: Report

    /// The report `report`, read from `path`.
    package init(path: String, report: Report) {
      self.path = path
      self.report = report
    }
  }

  /// The reports, as one history.
  package var reports: ReportSeries
  /// The size drawn.
  package var n: Int
  /// Whether costs are drawn as ratios to each report's reference rows, every machine in one
  /// chart.
  package var relative: Bool
  /// The command that wrote the page, which its head and footer name.
  package var generator = "report"

  /// The workloads drawn, with their pattern: the front page's.
  static let workloads: [(Workload, WorkloadPattern)] = [
    (.notify, .single), (.subscribe, .single), (.cancel, .random),
  ]

  /// A trend of `sources` at `n`, drawn relative to each report's reference rows when
  /// `relative`.
  ///
  /// - Complexity: O(1).
  package init(sources: [Source], n: Int, relative: Bool) {
    self.init(reports: ReportSeries(sources.map { ($0.path, $0.report) }), n: n, relative: relative)
  }

  /// A trend of `reports` at `n`, drawn relative to each report's reference rows when
  /// `relative`.
  ///
  /// - Complexity: O(1).
  package init(reports: ReportSeries, n: Int, relative: Bool) {
    self.reports = reports
    self.n = n
    self.relative = relative
  }

  /// Refuses what would draw nothing: a size no report has on a workload of the page, and a
  /// relative trend of a report whose reference rows have no `notify` cost at `n`.
  ///
  /// - Throws: ``ReportPageError`` naming the size, or the report's source.
  /// - Complexity: O(*r*) for *r* results of all the reports.
  package func validate() throws {
    let drawn = reports.entries.flatMap { entry in
      entry.report.results.filter { isDrawn($0.cell) }
    }
    guard !drawn.isEmpty else {
      let sizes = Set(reports.entries.flatMap { $0.report.results.map(\.cell.n) }).sorted()
      throw ReportPageError(
        "no report has notify, subscribe or random cancel at n = \(n); the reports have n ="
          + " \(sizes.map(String.init).joined(separator: ", "))", remedies: [.anotherSize])
    }
    if relative {
      for entry in reports.entries
      where ReportSeries.machineSpeed(of: entry.report.results, n: n) == nil {
        throw ReportPageError(
          "\(entry.path): no reference row has a notify cost at n = \(n), so its costs cannot"
            + " be read relative to its machine", remedies: [.absoluteCosts, .anotherSize])
      }
    }
  }

  /// Whether a cell is one the page draws: a workload of the page at `n`, one path level and
  /// one thread.
  func isDrawn(_ cell: Cell) -> Bool {
    cell.n == n && cell.depth == 0 && cell.threads == 1
      && Self.workloads.contains { $0.0 == cell.workload && $0.1 == cell.pattern }
  }

  /// One series of reports: one machine (every machine when relative) and one metric, its
  /// reports oldest first.
  struct Series {
    var machines: [Machine]
    var metric: Metric
    var entries: [ReportSeries.Entry]
  }

  /// The reports grouped into series: per machine and metric, or per metric when relative;
  /// each oldest first, as the ``ReportSeries`` orders them.
  var series: [Series] {
    var groups: [(key: String, series: Series)] = []
    for entry in reports.entries {
      let metric = entry.report.results[0].metric
      let key = "\(metric.rawValue) " + (relative ? "" : entry.machine.description)
      if let index = groups.firstIndex(where: { $0.key == key }) {
        groups[index].series.entries.append(entry)
        if !groups[index].series.machines.contains(entry.machine) {
          groups[index].series.machines.append(entry.machine)
        }
      } else {
        groups.append((key, Series(machines: [entry.machine], metric: metric, entries: [entry])))
      }
    }
    return groups.map { group in
      var series = group.series
      series.machines.sort()
      return series
    }
  }

  /// What a report is called on the axis and in the tables: `8c4b037 2026-11-27`, numbered
  /// (`#2`) when two reports share commit and date; the table of the series' reports names
  /// each one's file.
  static func label(_ source: ReportSeries.Entry, among sources: [ReportSeries.Entry]) -> String {
    guard let environment = source.report.results.first?.environment else { return source.path }
    let commit = String(environment.commit.prefix(7))
    let label = "\(commit) \(environment.date.prefix(10))"
    let twins = sources.filter {
      $0.report.results.first.map {
        "\($0.environment.commit.prefix(7)) \($0.environment.date.prefix(10))"
      } == label
    }
    guard twins.count > 1, let place = twins.firstIndex(where: { $0.position == source.position })
    else { return label }
    // Twins are numbered in the series' order; the table of reports above names each one's file.
    return label + " #\(place + 1)"
  }

  /// What changed how everything is measured from each report to the next of one machine:
  /// the build (`release`, `release-static-stdlib`), the toolchain, the allocator's version
  /// (of `allocator`'s rows); by position in `entries`.
  ///
  /// - Complexity: O(*r*) for *r* results of the entries.
  static func changes(in entries: [ReportSeries.Entry], allocator: Allocator?) -> [Int: String] {
    func setup(_ entry: ReportSeries.Entry) -> (build: String, swift: String, allocator: String)? {
      guard let first = entry.report.results.first else { return nil }
      let version =
        entry.report.results.first { $0.cell.allocator == allocator }?.allocatorVersion ?? ""
      return (first.environment.build, first.environment.swift, version)
    }
    var changes: [Int: String] = [:]
    for index in entries.indices.dropFirst() {
      guard let before = setup(entries[index - 1]), let now = setup(entries[index]) else {
        continue
      }
      var what: [String] = []
      if before.build != now.build { what.append("build \(before.build) → \(now.build)") }
      if before.swift != now.swift { what.append("toolchain Swift \(before.swift) → \(now.swift)") }
      if before.allocator != now.allocator && !before.allocator.isEmpty && !now.allocator.isEmpty {
        what.append("allocator \(before.allocator) → \(now.allocator)")
      }
      if !what.isEmpty { changes[index] = what.joined(separator: "; ") }
    }
    return changes
  }

  /// The charts of one workload: one per series (and allocator).
  func charts(
    of workload: Workload, _ pattern: WorkloadPattern, numbering: inout Int
  ) -> [Chart] {
    let referenceNames = Array(
      Set(
        reports.entries.flatMap { $0.report.results.filter(\.isReference).map(\.cell.backend) }))
    var charts: [Chart] = []
    let allSeries = series
    let allBackends = reports.entries.flatMap { $0.report.results.map(\.cell.backend) }
    let colors = ChartSection.colorClasses(allBackends, references: referenceNames)
    for series in allSeries {
      let allocators = Set(
        series.entries.flatMap { $0.report.results.map(\.cell.allocator) }
      ).sorted { $0.rawValue < $1.rawValue }
      // A chart per allocator; in one relative chart, a line per machine and allocator.
      let chartAllocators: [Allocator?] = relative ? [nil] : allocators.map { $0 }
      for allocator in chartAllocators {
        var placed: [String: [(position: Int, result: CellResult)]] = [:]
        var backends: [String] = []
        var labels: [Int: String] = [:]
        for (index, source) in series.entries.enumerated() {
          labels[index] = Self.label(source, among: series.entries)
          let speed = relative ? ReportSeries.machineSpeed(of: source.report.results, n: n) : nil
          let machine: Machine? = source.machine
          for result in source.report.results
          where (allocator == nil || result.cell.allocator == allocator)
            && result.cell.workload == workload && result.cell.pattern == pattern
            && isDrawn(result.cell) && result.status.kind != .notApplicable
          {
            var line = result.cell.backend
            if relative && series.machines.count > 1, let machine {
              line += " · " + machine.name(among: series.machines)
            }
            if allocator == nil && allocators.count > 1 {
              line += " · \(result.cell.allocator.rawValue)"
            }
            let shown = speed.map { result.dividingCost(by: $0) } ?? result
            if placed[line] == nil { backends.append(line) }
            placed[line, default: []].append((index, shown))
          }
        }
        guard !backends.isEmpty else { continue }
        func base(_ line: String) -> String { String(line.split(separator: " ").first ?? "") }
        let ordered =
          backends.filter { referenceNames.contains(base($0)) }
          + backends.filter { !referenceNames.contains(base($0)) }
        let quantity: ChartQuantity = relative ? .relativeCost : .cost
        // A colour per backend, the same in every machine's chart; in one relative chart, a
        // colour per line, so that two machines' lines of one backend differ.
        let lineColors = ChartSection.colorClasses(ordered, references: referenceNames)
        let lines = ordered.map { line in
          Chart.Line(
            backend: line, isReference: referenceNames.contains(base(line)), remark: "",
            colorClass: (relative ? lineColors[line] : colors[base(line)]) ?? "c0",
            placed: placed[line] ?? [],
            quantity: quantity)
        }
        numbering += 1
        let changes = relative ? [:] : Self.changes(in: series.entries, allocator: allocator)
        let key = Chart.Key(
          metric: series.metric, allocator: allocator ?? allocators[0], workload: workload,
          pattern: pattern, fixed: n)
        var title = quantity.heading(metric: series.metric) + ": " + key.description(.run)
        title +=
          relative
          ? " on " + series.machines.map { $0.name(among: series.machines) }.joined(separator: "; ")
          : " on " + series.machines.map(\.description).joined(separator: ", ")
        if let allocator, allocators.count > 1 { title += ", \(allocator.rawValue) allocator" }
        let operation = workload.unit
        charts.append(
          Chart(
            key: key, dimension: .run, quantity: quantity, title: title,
            unit: quantity.unit(metric: series.metric, operation: operation),
            identifier: "chart-\(numbering)", positions: Array(series.entries.indices),
            positionLabels: labels, changes: changes, lines: lines))
      }
    }
    return charts
  }
}

extension CellResult {
  /// This result with its cost (every order statistic of its time, or its instruction count)
  /// divided by `divisor`: a relative trend's value.
  fileprivate func dividingCost(by divisor: Double) -> CellResult {
    var copy = self
    if var time = copy.nanoseconds {
      time.min /= divisor
      time.median /= divisor
      time.p90 /= divisor
      time.max /= divisor
      copy.nanoseconds = time
    }
    copy.instructionsPerOperation = copy.instructionsPerOperation.map { $0 / divisor }
    return copy
  }
}

extension TrendPage {
  /// The page: a complete HTML document that loads nothing, as ``HTMLReport/html`` is.
  ///
  /// Its parts, in order: the reports of each series, oldest first (commit, date, machine,
  /// file); a list of contents; a section per workload with a chart per series, side by side,
  /// each with its table.
  ///
  /// - Complexity: O(*r* log *r*) for *r* results of every report.
  package var html: String {
    let script = ReportPageScript.source
    var numbering = 0
    let sections = Self.workloads.map { workload, pattern in
      (workload, pattern, charts(of: workload, pattern, numbering: &numbering))
    }.filter { !$0.2.isEmpty }
    let allSeries = series
    var page = [
      "<!DOCTYPE html>",
      "<html lang=\"en\">",
    ]
    page += PageHead.lines(
      title: "Observatory trends, \(reports.entries.count) reports", generator: generator)
    page += [
      "<body>",
      "<header>",
      "<h1>Observatory trends</h1>",
      "<p class=\"source\">\(reports.entries.count) reports at n = \(NumberText.grouped(n)), "
        + (relative
          ? "each cost divided by its own report's reference rows (its machine's speed)"
          : "one chart per machine: a line never joins two machines")
        + ".</p>",
    ]
    for series in allSeries {
      page.append(
        "<h2>" + HTMLText.escaped(series.machines.map(\.description).joined(separator: "; "))
          + ", \(series.metric.rawValue)</h2>")
      page.append(
        "<table class=\"runs\"><thead><tr><th scope=\"col\">report</th><th scope=\"col\">machine"
          + "</th><th scope=\"col\">toolchain</th><th scope=\"col\">file</th></tr></thead><tbody>"
          + series.entries.map { source in
            let environment = source.report.results[0].environment
            return "<tr><th scope=\"row\">"
              + HTMLText.escaped(Self.label(source, among: series.entries)) + "</th><td>"
              + HTMLText.escaped(source.machine.description) + "</td><td>Swift "
              + HTMLText.escaped(environment.swift + ", " + environment.build) + "</td><td><code>"
              + HTMLText.escaped(source.path) + "</code></td></tr>"
          }.joined() + "</tbody></table>")
    }
    page.append("</header>")
    page.append(
      "<nav><ul>"
        + sections.map { workload, pattern, _ in
          "<li><a href=\"#trend-\(Self.anchor(workload, pattern))\">"
            + HTMLText.escaped(Self.name(workload, pattern)) + "</a></li>"
        }.joined() + "</ul></nav>")
    page.append("<main>")
    for (workload, pattern, charts) in sections {
      page.append(
        "<section class=\"workload\" id=\"trend-\(Self.anchor(workload, pattern))\""
          + " data-workload=\"\(workload.rawValue)\">")
      page.append("<h2>\(HTMLText.escaped(Self.name(workload, pattern)))</h2>")
      page.append("<p class=\"workload-summary\">\(HTMLText.escaped(workload.summary))</p>")
      page.append("<div class=\"machines\">")
      page += charts.map(ChartFigure.render)
      page.append("</div>")
      page.append("</section>")
    }
    page += [
      "</main>",
      "<footer>Written by <code>\(HTMLText.escaped(generator))</code>. Every number on this page is read"
        + " from the files named above.</footer>",
      "<script>" + script + "</script>",
      "</body>",
      "</html>",
    ]
    return page.joined(separator: "\n") + "\n"
  }

  /// `notify`, `cancel (random)`.
  private static func name(_ workload: Workload, _ pattern: WorkloadPattern) -> String {
    pattern == .single ? workload.rawValue : "\(workload.rawValue) (\(pattern.rawValue))"
  }

  /// `notify`, `cancel-random`: a section's identifier.
  private static func anchor(_ workload: Workload, _ pattern: WorkloadPattern) -> String {
    pattern == .single ? workload.rawValue : "\(workload.rawValue)-\(pattern.rawValue)"
  }
}
