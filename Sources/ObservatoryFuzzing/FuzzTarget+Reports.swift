import ObservationReportPage
import ObservationReports

extension FuzzTarget {
  /// The report target: read, the round trip, then every reading a person makes of it, and
  /// both exports.
  static func checkReport(_ input: [UInt8]) throws(FuzzFinding) {
    guard let report = readReport(input, name: "input") else { return }
    let written = report.csv
    guard let again = readReport(Array(written.utf8), name: "written") else {
      throw FuzzFinding("a report that reads was written back to text that does not read")
    }
    guard again.csv == written else {
      throw FuzzFinding("a report written back and read again writes other text")
    }
    read(report)
    try checkExports(report)
  }

  /// The series target: the reports that read, then their trend page.
  static func checkSeries(_ input: [UInt8]) throws(FuzzFinding) {
    guard let mode = input.first else { return }
    let parts = input.dropFirst().split(
      separator: 0x0C, maxSplits: 7, omittingEmptySubsequences: false)
    var sources: [TrendPage.Source] = []
    for (index, part) in parts.enumerated() {
      if let report = readReport(Array(part), name: "report \(index + 1)") {
        sources.append(TrendPage.Source(path: "report-\(index + 1).csv", report: report))
      }
    }
    guard !sources.isEmpty else { return }
    // The low bits pick a size a report may hold, the high bit a relative trend.
    let sizes = [1, 16, 1024, 65536]
    var page = TrendPage(
      sources: sources, n: sizes[Int(mode & 3)], relative: mode & 0x80 != 0)
    page.generator = "fuzz"
    guard (try? page.validate()) != nil else { return }
    _ = page.html
  }

  /// The report `bytes` hold, or `nil` if they are not UTF-8 or the reader refuses them.
  private static func readReport(_ bytes: [UInt8], name: String) -> Report? {
    guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
    return try? Report.read(csv: text, name: name)
  }

  /// Every reading of a report the tool makes: the costs as tables print them, the report as
  /// JSON, a comparison with itself, the page and the README's charts.
  private static func read(_ report: Report) {
    for result in report.results {
      _ = result.costText
      _ = Comparison.comparedText(result)
    }
    _ = try? report.json()
    if let comparison = try? Comparison(
      base: report.results, candidate: report.results, threshold: 0.05,
      allowingOtherMachine: true)
    {
      _ = comparison.summary
      for entry in comparison.shown(changesOnly: false) {
        _ = comparison.change(entry)
        _ = comparison.describe(entry.base)
      }
    }
    _ = HTMLReport(report: report, source: "input.csv").html
    _ = try? SVGChart.draw(
      SVGChart.readme(of: report), of: report, source: "input.csv", generator: "fuzz")
  }
}
