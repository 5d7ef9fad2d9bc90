import Foundation
import ObservationWorkloads
import ReportFixtures
import SweepFixtures
import Testing

@testable import ObservationHarness
@testable import ObservationReports
@testable import ObservatoryCommandLine

/// What `run` says at the end of a sweep and while it runs, from typed results: no sweep runs.
@Suite("sweep summary and progress")
struct SweepSummaryTests {
  /// A sweep's results: linked-list measured at 16 and 256 (one cell without memory columns),
  /// array capped three ways, key-path capped once, an invalid and a failed cell.
  static let report: Report = {
    var withoutMemory = Rows.outcome([10, 11, 12])
    withoutMemory.memoryMeasured = false
    var outOfBudget = Rows.outcome([])
    outOfBudget.capped = true
    let cells: [(Cell, CellRunner.Result?)] = [
      (Rows.plan(n: 16), .finished(Rows.outcome([10, 11, 12]))),
      (Rows.plan(n: 256), .finished(withoutMemory)),
      (Rows.plan("key-path", n: 16), .timedOut),
      (Rows.plan("array", n: 16), .finished(outOfBudget)),
      (Rows.plan("array", n: 256), .timedOut),
      (Rows.plan("array", n: 4096), nil),
      (
        Rows.plan("swift-observations", workload: .subscribe, n: 16),
        .finished(Rows.outcome([], problem: "expected 16 deliveries, got 15"))
      ),
      (Rows.plan("notification-center", n: 16), .failed("cell process was killed by signal 9")),
    ]
    return ReportBuilder(environment: Rows.environment)
      .report(cells, largestFinished: [:])
  }()

  static let path = "Results/2026-11-24_abc123_host.csv"

  static func summary(
    _ destination: SweepSummary.Destination = .csv(path), baseline: String? = nil,
    report: Report = report
  ) -> SweepSummary {
    SweepSummary(
      report: report, wallSeconds: 723.4, destination: destination, baseline: baseline,
      tableSizes: [16, 4096])
  }

  @Test("The counts, the wall time, where the report went and the most capped backends")
  func counts() {
    let lines = Self.summary().text.split(separator: "\n").map(String.init)
    #expect(
      lines[0]
        == "observatory: 8 cells in 12m03s: 2 ok (1 without memory), 4 capped, 1 invalid,"
        + " 1 failed")
    #expect(lines[1] == "  report: \(Self.path)")
    #expect(lines[2] == "  most capped: array (3), key-path (1)")
    #expect(
      lines[3]
        == "  invalid: jemalloc swift-observations subscribe - n=16: expected 16 deliveries,"
        + " got 15")
    #expect(
      lines[4] == "  failed: jemalloc notification-center notify - n=16: cell process was killed"
        + " by signal 9")
  }

  @Test(
    "The next commands name the report, the page beside it and the baseline; with no baseline, how to make one"
  )
  func nextCommands() {
    let text = Self.summary(baseline: "Results/2026-11-23_e4202d2fd5eb_vm.csv").text
    let next = text.components(separatedBy: "  next:\n").last ?? ""
    #expect(
      next == """
            observatory table \(Self.path)
            observatory report \(Self.path) --output Results/2026-11-24_abc123_host.html
            observatory compare Results/2026-11-23_e4202d2fd5eb_vm.csv \(Self.path)

        """)
    // No comparable report: no compare command that would be refused, but how to have one.
    let alone = Self.summary().text
    #expect(!alone.contains("observatory compare"))
    #expect(alone.contains("  no report beside it can be compared with it"))
    #expect(alone.hasSuffix("measure both builds at once with `observatory ab`\n"))
  }

  @Test("table gets --sizes (the two largest) and --allocator when its defaults would refuse")
  func tableOptions() {
    var results = Self.report.results
    results += results.map { result in
      var other = result
      other.cell.allocator = .system
      return other
    }
    let summary = SweepSummary(
      report: Report(results), wallSeconds: 1, destination: .csv("a b.csv"),
      tableSizes: [1024])
    #expect(
      summary.nextCommands("a b.csv").first
        == "observatory table 'a b.csv' --allocator jemalloc --sizes 256,4096")
  }

  @Test("JSON or standard output: no commands that read a CSV report")
  func otherDestinations() {
    for destination in [SweepSummary.Destination.json("r.json"), .standardOutput] {
      let text = Self.summary(destination).text
      #expect(!text.contains("next:") && !text.contains("observatory table"))
    }
    #expect(Self.summary(.standardOutput).text.contains("  report: standard output\n"))
  }

  @Test("--quiet: one line with the counts and the report's path")
  func quietLine() {
    #expect(
      Self.summary().line
        == "observatory: 8 cells in 12m03s: 2 ok (1 without memory), 4 capped, 1 invalid,"
        + " 1 failed; report: \(Self.path)\n")
  }

  @Test("A sweep with nothing capped, invalid or failed says so in two lines and the commands")
  func cleanSweep() {
    let clean = Report(Self.report.results.filter { $0.status.isMeasured })
    let lines = Self.summary(baseline: "Results/old.csv", report: clean).text.split(
      separator: "\n")
    #expect(lines[0].hasSuffix(": 2 ok (1 without memory), 0 capped, 0 invalid, 0 failed"))
    #expect(lines[2] == "  next:" && lines.count == 6)
  }

  @Test("The progress line fits every width, keeps the counts and the time left, cuts the label")
  func progressLineFits() {
    let label = "jemalloc combine-published-switchtolatest nested rebind depth=3 n=1048576"
    for columns in 1...240 {
      let line = SweepProgress.line(
        done: 412, total: 851, remainingSeconds: 725, label: label, columns: columns)
      #expect(line.count <= max(1, columns - 1), "\(columns): \(line)")
      if columns >= 40 { #expect(line.contains("412/851 12m05s left"), "\(columns): \(line)") }
    }
    let wide = SweepProgress.line(
      done: 412, total: 851, remainingSeconds: 725, label: label, columns: 200)
    #expect(wide.hasPrefix("[") && wide.hasSuffix(label))
    let narrow = SweepProgress.line(
      done: 412, total: 851, remainingSeconds: 725, label: label, columns: 60)
    #expect(narrow.hasPrefix("412/851 12m05s left  jemalloc") && narrow.hasSuffix("…"))
    #expect(
      SweepProgress.line(done: 1, total: 2, remainingSeconds: nil, label: "x", columns: 80)
        .hasSuffix("] 1/2  x"))
  }

  @Test("In a log, progress is a line per tenth of the cells, and the last cell always writes")
  func progressLinesPerTenth() {
    for total in [1, 3, 9, 10, 11, 99, 1_246] {
      let written = (1...total).filter { SweepProgress.completesATenth(done: $0, total: total) }
      #expect(written.count == min(total, 10), "\(total): \(written)")
      #expect(written.last == total, "\(total)")
    }
    // A tenth of 1,246 cells is 124.6: the first line comes at cell 125.
    #expect(!SweepProgress.completesATenth(done: 124, total: 1_246))
    #expect(SweepProgress.completesATenth(done: 125, total: 1_246))
  }

  @Test("COLUMNS sets the width when it is a positive number")
  func terminalWidth() {
    #expect(TerminalWidth.standardError(environment: ["COLUMNS": "123"]) == 123)
    for text in ["0", "-5", "wide", ""] {
      #expect(TerminalWidth.standardError(environment: ["COLUMNS": text]) > 0)
    }
  }

  @Test("Time left: nothing known before a cell ran; then the series' own projection")
  func remainingTimeFromProjection() throws {
    let sizes = [1024, 4096, 65536, 1_048_576]
    let series = sizes.map { Rows.plan(workload: .cancel, n: $0) }
    var timing = RemainingTime()
    let budget = 1.0
    let repetitions = { (_: Cell) in 2 }
    #expect(
      timing.seconds(
        remaining: series, projections: [:], capped: [], budget: budget,
        repetitions: repetitions) == nil)
    // A flat per-operation cost, set-up linear in n: 65,536 projects to 0.32 s.
    var projection = CostProjection()
    projection.record(n: 1024, secondsPerRepetition: 0.010, nanosecondsPerOperation: 50)
    projection.record(n: 4096, secondsPerRepetition: 0.010, nanosecondsPerOperation: 50)
    timing.record(series[0], seconds: 0.2)
    timing.record(series[1], seconds: 0.25)
    let projections = [series[0].series: projection]
    let projected = try #require(
      projection.projectedSeconds(n: 65536, repetitions: 2, minimumOperations: 65536))
    #expect(abs(projected - 0.32) < 1e-9)
    // 65,536 costs its projection (more than the last cell took); 1,048,576 projects to
    // 5.12 s, past 1.5 budgets: the sweep skips it, so it costs nothing.
    let left = try #require(
      timing.seconds(
        remaining: series[2...], projections: projections, capped: [], budget: budget,
        repetitions: repetitions))
    #expect(abs(left - projected) < 1e-9)
    // A capped series costs nothing more.
    #expect(
      timing.seconds(
        remaining: series[2...], projections: projections, capped: [series[0].series],
        budget: budget, repetitions: repetitions) == 0)
  }

  @Test("Time left: a series not started costs, per size, what that size cost before")
  func remainingTimeOfNewSeries() throws {
    var timing = RemainingTime()
    timing.record(Rows.plan(n: 16), seconds: 0.3)
    timing.record(Rows.plan("array", n: 16), seconds: 0.5)
    timing.record(Rows.plan(n: 256), seconds: 1.0)
    let next = [Rows.plan("key-path", n: 16), Rows.plan("key-path", n: 256)]
    let left = try #require(
      timing.seconds(
        remaining: next, projections: [:], capped: [], budget: 1, repetitions: { _ in 4 }))
    // Per size, what that size cost in the series before: the mean of 0.3 and 0.5 at 16, 1.0
    // at 256.
    #expect(abs(left - (0.4 + 1.0)) < 1e-9)
  }

  @Test("The report to compare with: the newest dated one of the same kind beside it")
  func latestComparable() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "observatory-baseline-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for name in [
      "2026-11-22_aaa_vm.csv", "2026-11-23_bbb_vm.csv", "2026-11-25_ccc_vm_quick.csv",
      "2026-11-25_ddd_vm_instructions.csv", "conformance.csv", "zzz.csv",
      "2026-11-24_new_vm.csv", "2026-11-24_new_vm_quick_2.csv",
    ] {
      try "".write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    let base = directory.path + "/"
    #expect(
      DefaultReportName.latestComparable(to: base + "2026-11-24_new_vm.csv")
        == base + "2026-11-23_bbb_vm.csv")
    #expect(
      DefaultReportName.latestComparable(to: base + "2026-11-24_new_vm_quick_2.csv")
        == base + "2026-11-25_ccc_vm_quick.csv")
    #expect(
      DefaultReportName.latestComparable(to: base + "2026-11-26_x_vm_instructions.csv")
        == base + "2026-11-25_ddd_vm_instructions.csv")
    #expect(DefaultReportName.latestComparable(to: base + "2026-11-26_x_vm_partial.csv") == nil)
    // Given the new report's rows, only a report compare accepts as their base is taken: a
    // newer one of another host, and one of another allocator (no cell in common), are
    // passed over.
    var elsewhere = Rows.environment
    elsewhere.host = "elsewhere"
    try ComparedReports.report(environment: elsewhere).write(
      to: directory.appendingPathComponent("2026-11-23_bbb_vm.csv"), atomically: true,
      encoding: .utf8)
    try ComparedReports.report().replacingOccurrences(of: ",jemalloc,", with: ",system,").write(
      to: directory.appendingPathComponent("2026-11-22_zzz_vm.csv"), atomically: true,
      encoding: .utf8)
    try ComparedReports.report().write(
      to: directory.appendingPathComponent("2026-11-22_aaa_vm.csv"), atomically: true,
      encoding: .utf8)
    let rows = try ReportReader.read(Rows.write(ComparedReports.report()))
    #expect(
      DefaultReportName.latestComparable(to: base + "2026-11-24_new_vm.csv", results: rows)
        == base + "2026-11-22_aaa_vm.csv")
    try FileManager.default.removeItem(
      at: directory.appendingPathComponent("2026-11-22_aaa_vm.csv"))
    #expect(
      DefaultReportName.latestComparable(to: base + "2026-11-24_new_vm.csv", results: rows) == nil)
  }
}
