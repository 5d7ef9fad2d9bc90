import Foundation
import ObservationWorkloads
import ReportFixtures
import SweepFixtures
import Testing

@testable import ObservationHarness
@testable import ObservationReportPage
@testable import ObservationReports
@testable import ObservatoryCommandLine

@Suite("report --charts: the README's charts as files")
struct ReportChartsCommandTests {
  static let names = ["cancel-random.svg", "notify.svg", "subscribe.svg"]

  /// The names in `directory`, sorted; empty if it does not exist.
  static func contents(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
  }

  static func read(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
  }

  @Test("The page and the three charts are written, the directory made; the files are the drawings")
  func writesCharts() throws {
    let directory = try ReportCommandTests.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("report.html").path
    let charts = directory.appendingPathComponent("Results/charts").path
    let report = PageFixtures.reportPath()
    #expect(
      ReportCommandTests.run(["report", report, "--output", output, "--charts", charts]) == nil)
    #expect(Self.contents(charts) == Self.names)
    #expect(
      try Self.read(output)
        == (try HTMLReport.read(report: report, generator: "observatory report").html))
    for chart in try PageFixtures.readmeCharts(report) {
      let written = try Self.read(charts + "/" + chart.selection.fileName)
      #expect(written == chart.svg)
    }
  }

  @Test("A report with contended-notify also gets its chart against threads, at its largest size")
  func contendedChart() throws {
    let directory = try ReportCommandTests.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    var cells = PageFixtures.cells(backendNames: PageFixtures.backends, note: nil)
    for n in [16, 1024] {
      for threads in [1, 2, 4] {
        cells.append(
          (
            Cell(
              allocator: .jemalloc, backend: "dense-synchronized", workload: .contendedNotify,
              n: n, threads: threads),
            .finished(Rows.outcome([10, 11, 12].map { $0 * Double(threads) }))
          ))
      }
    }
    let report = Rows.write(Rows.report(cells))
    let charts = directory.appendingPathComponent("charts").path
    let output = directory.appendingPathComponent("report.html").path
    #expect(
      ReportCommandTests.run(["report", report, "--output", output, "--charts", charts]) == nil)
    #expect(Self.contents(charts) == (Self.names + ["contended-notify.svg"]).sorted())
    let svg = try Self.read(charts + "/contended-notify.svg")
    #expect(svg.contains("contended-notify (n = 1,024) by threads"), "\(svg.prefix(600))")
    #expect(svg.contains("threads (log scale"))
  }

  @Test("An existing chart is kept without --force, and then nothing is written")
  func keepsExistingFiles() throws {
    let directory = try ReportCommandTests.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("report.html").path
    let charts = directory.appendingPathComponent("charts").path
    try FileManager.default.createDirectory(atPath: charts, withIntermediateDirectories: true)
    let notify = charts + "/notify.svg"
    try "mine\n".write(toFile: notify, atomically: true, encoding: .utf8)
    let report = PageFixtures.reportPath()
    let arguments = ["report", report, "--output", output, "--charts", charts]
    let refused = try #require(ReportCommandTests.run(arguments))
    #expect(
      refused == "--charts '\(notify)': exists; pass --force to replace it, or give another"
        + " path (nothing was measured)")
    #expect(try Self.read(notify) == "mine\n")
    #expect(Self.contents(charts) == ["notify.svg"])
    #expect(Self.contents(directory.path) == ["charts"])
    // With --force, every file is replaced or written.
    #expect(ReportCommandTests.run(arguments + ["--force"]) == nil)
    #expect(Self.contents(charts) == Self.names)
    #expect(try Self.read(notify) == (try PageFixtures.readmeCharts(report)[0].svg))
    #expect(FileManager.default.fileExists(atPath: output))
  }

  @Test("A report without one of the charts is refused before anything is written")
  func refusesMissingWorkload() throws {
    let directory = try ReportCommandTests.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("report.html").path
    let charts = directory.appendingPathComponent("charts").path
    // notify only.
    let cells: [(Cell, CellRunner.Result?)] = PageFixtures.sizes.map { n in
      (Rows.plan("array", n: n), .finished(Rows.outcome([10, 11, 12])))
    }
    let report = Rows.write(Rows.report(cells))
    let refused = try #require(
      ReportCommandTests.run(["report", report, "--output", output, "--charts", charts]))
    #expect(
      refused
        == "\(report): no measured cost of subscribe or cancel (random) to chart (the charts are"
        + " notify, subscribe, cancel (random))")
    #expect(!refused.contains("\n"))
    // No page, no chart, not even the directory: nothing was written.
    #expect(Self.contents(directory.path).isEmpty)
    // Without --charts the page needs none of them.
    #expect(ReportCommandTests.run(["report", report, "--output", output]) == nil)
  }

  @Test("--charts needs a directory other than the page")
  func validation() throws {
    let report = PageFixtures.reportPath()
    let empty = try #require(
      ReportCommandTests.run(["report", report, "--output", "r.html", "--charts", ""]))
    #expect(empty.contains("--charts takes a directory"), "\(empty)")
    let same = try #require(
      ReportCommandTests.run([
        "report", report, "--output", "out/charts/notify.svg", "--charts", "out/charts/",
      ]))
    #expect(same.contains("--output and --charts both name"), "\(same)")
  }
}
