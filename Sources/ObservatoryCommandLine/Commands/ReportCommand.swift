import ArgumentParser
import Foundation
import ObservationConformance
import ObservationReportPage
import ObservationReports

/// `observatory report REPORT --output report.html [--charts DIRECTORY]`: a report as one
/// self-contained HTML page, and the README's charts as standalone SVG files; `observatory
/// report REPORT REPORT... --output trends.html`: several reports as a page of trends.
struct ReportCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Write a report as one self-contained HTML page of charts and tables.",
    discussion: """
      Per workload, a log-log chart of the cost per operation against n (a line per backend, \
      the reference rows dashed as the floor, a cross where a capped cell stops a line) with \
      a table of every value, and the memory or cache columns charted the same way when the \
      report has them. --baseline adds `compare`'s verdicts per cell, regressions first; \
      --conformance adds the conformance matrix. The page loads nothing from anywhere.

      --charts also draws the README's charts, each as an SVG file that shows as an image \
      anywhere (no script, no style sheet, nothing loaded): notify.svg (cost per delivery), \
      subscribe.svg and cancel-random.svg (cancellation in random order), in time if the \
      report measures time, and contended-notify.svg (cost per delivery against the threads \
      writing, at the largest size) when the report has it. Every input is read and every chart drawn before anything is \
      written; then the page and the charts are written together, or none of them.

      Given several reports (Results/*.csv), it draws their trends instead: per workload \
      (notify, subscribe, random cancel) at one size (--n, default 1,024), each backend's \
      cost in each report, oldest first, the reference rows dashed, so that a regression or \
      a win shows as a step. Reports of several machines (host, CPU, cores) get a chart per \
      machine, side by side, so that no line joins two machines; --relative draws them in one \
      chart instead, each cost divided by its own report's reference rows.
      """)

  @Argument(help: "The report (CSV); several reports draw their trends.") var reports: [String]
  @Option(name: .long, help: "With several reports: the size whose trend is drawn (default 1024).")
  var n: Int?
  @Flag(
    name: .long,
    help: ArgumentHelp(
      "With several reports: one chart for every machine, each cost relative to its"
        + " report's reference rows."))
  var relative = false
  @Option(name: .long, help: "A report to compare with, as `compare BASELINE REPORT` does.")
  var baseline: String?
  @Option(name: .long, help: "The conformance matrix to show (CSV), e.g. Results/conformance.csv.")
  var conformance: String?
  @Option(
    name: .long,
    help: "With --baseline: percent a cost must change by to count (as `compare`'s --threshold).")
  var threshold: Double?
  @Option(name: .long, help: "Where to write the page; '-' for standard output.")
  var output: String
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Also write notify.svg, subscribe.svg, cancel-random.svg (and contended-notify.svg when"
        + " measured) into this directory (made if"
        + " missing).", valueName: "directory"))
  var charts: String?
  @Flag(
    name: .long,
    help: "Replace the files --output and --charts name if they exist (regular files only).")
  var force = false

  /// The one report of a page (not a trend).
  var report: String { reports[0] }

  func validate() throws {
    if reports.isEmpty {
      throw ValidationError("give the report to draw (CSV), or several to draw their trends")
    }
    if reports.count > 1 {
      for (option, given) in [
        ("--baseline", baseline != nil), ("--conformance", conformance != nil),
        ("--charts", charts != nil), ("--threshold", threshold != nil),
      ] where given {
        throw ValidationError(
          "\(option) goes with one report; with \(reports.count) reports, report draws their"
            + " trends (--n, --relative)")
      }
      if let n, !(1...(1 << 30)).contains(n) {
        throw ValidationError("--n must be an observer count from 1 to 1073741824, got \(n)")
      }
    } else if relative || n != nil {
      throw ValidationError(
        "\(relative ? "--relative" : "--n") goes with several reports (a trend); one report is"
          + " drawn at every size")
    }
    if let threshold, !(threshold.isFinite && threshold >= 0 && threshold <= 1000) {
      throw ValidationError("--threshold must be a percentage from 0 to 1000, got \(threshold)")
    }
    if threshold != nil && baseline == nil {
      throw ValidationError("--threshold goes with --baseline")
    }
    if charts?.isEmpty == true {
      throw ValidationError("--charts takes a directory; give one (`.` for this one)")
    }
    let standardized = (output as NSString).standardizingPath
    if output != "-",
      let chart = chartPaths.first(where: { ($0 as NSString).standardizingPath == standardized })
    {
      throw ValidationError("--output and --charts both name \(chart); give the page another name")
    }
  }

  /// Every file the command reads, which no output may be.
  var inputs: [String] { reports + [baseline, conformance].compactMap { $0 } }

  func run(with tool: Tool) throws {
    // `-`: the page goes to standard output, after the charts (if any) are written.
    let pageFile = output == "-" ? nil : OutputFile(output, replacing: force).readingFrom(inputs)
    if reports.count > 1 {
      try pageFile?.check()
      // `Results/*.csv` names the conformance matrix too: it has no costs to draw.
      let matrices = reports.filter(ConformanceMatrixCSV.isMatrix(atPath:))
      for matrix in matrices {
        StandardOutput.writeError(
          "\(tool.name): \(matrix): a conformance matrix, not a report: left out\n")
      }
      let trends = try TrendPage.read(
        reports: reports.filter { !matrices.contains($0) }, n: n ?? 1024, relative: relative,
        generator: "\(tool.name) report")
      for note in trends.reports.notes {
        StandardOutput.writeError(BoundedLine.shortened("\(tool.name): \(note)") + "\n")
      }
      try write(page: trends.html, to: pageFile, charts: [])
      return
    }
    var chartFiles = chartPaths.map {
      OutputFile($0, replacing: force, option: "--charts").readingFrom(inputs)
    }
    for file in [pageFile].compactMap({ $0 }) + chartFiles { try file.check() }
    let page = try HTMLReport.read(
      report: report, baseline: baseline, conformance: conformance,
      threshold: threshold.map { $0 / 100 }, generator: "\(tool.name) report")
    let selections = charts == nil ? [] : SVGChart.readme(of: page.report)
    // The charts drawn only when the report has them (contended-notify.svg).
    for selection in selections.dropFirst(chartFiles.count) {
      let file = OutputFile(
        (charts! as NSString).appendingPathComponent(selection.fileName), replacing: force,
        option: "--charts"
      ).readingFrom(inputs)
      try file.check()
      chartFiles.append(file)
    }
    let drawn: [SVGChart]
    do {
      drawn = try SVGChart.draw(
        selections, of: page.report, source: report,
        generator: "\(tool.name) report --charts")
    } catch let error as ReportPageError {
      throw ToolError(error.description)
    }
    try write(
      page: page.html, to: pageFile, charts: zip(chartFiles, drawn).map { ($0, $1.svg) })
  }

  /// Writes the page and the charts together, or none of them; a page for standard output
  /// (`pageFile` nil) is printed once the charts are in place.
  private func write(
    page: String, to pageFile: OutputFile?, charts: [(file: OutputFile, text: String)]
  ) throws {
    guard let pageFile else {
      if !charts.isEmpty { try OutputFile.writeAll(charts) }
      try StandardOutput.write(page)
      return
    }
    try OutputFile.writeAll([(pageFile, page)] + charts)
  }

  /// The chart files --charts names, in the order of ``SVGChart/readme``; none without it.
  var chartPaths: [String] {
    guard let charts else { return [] }
    return SVGChart.readme.map {
      (charts as NSString).appendingPathComponent($0.fileName)
    }
  }
}
