import ArgumentParser
import Foundation
import ObservationHarness

/// `observatory report REPORT --output report.html`: a report as one self-contained HTML page.
struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Write a report as one self-contained HTML page of charts and tables.",
    discussion: """
      Per workload, a log-log chart of the cost per operation against n (a line per backend, \
      the reference rows dashed as the floor, a cross where a capped cell stops a line) with \
      a table of every value, and the memory or cache columns charted the same way when the \
      report has them. --baseline adds `compare`'s verdicts per cell, regressions first; \
      --conformance adds the conformance matrix. The page loads nothing from anywhere.
      """)

  @Argument(help: "The report (CSV).") var report: String
  @Option(name: .long, help: "A report to compare with, as `compare BASELINE REPORT` does.")
  var baseline: String?
  @Option(name: .long, help: "The conformance matrix to show (CSV), e.g. Results/conformance.csv.")
  var conformance: String?
  @Option(
    name: .long,
    help: "With --baseline: percent a cost must change by to count (as `compare`'s --threshold).")
  var threshold: Double?
  @Option(name: .long, help: "Where to write the page.") var output: String
  @Flag(name: .long, help: "Replace the file --output names if it exists (a regular file only).")
  var force = false

  func validate() throws {
    if let threshold, !(threshold.isFinite && threshold >= 0 && threshold <= 1000) {
      throw ValidationError("--threshold must be a percentage from 0 to 1000, got \(threshold)")
    }
    if threshold != nil && baseline == nil {
      throw ValidationError("--threshold goes with --baseline")
    }
  }

  func run() throws {
    let file = OutputFile(output, replacing: force)
    try file.check()
    let page = try HTMLReport.read(
      report: report, baseline: baseline, conformance: conformance,
      threshold: threshold.map { $0 / 100 })
    try file.write(page.html)
  }
}
