import Foundation
import ObservationWorkloads
import ReportFixtures
import Testing

@testable import ObservationReports

@Suite("A series of reports")
struct ReportSeriesTests {
  /// The package's committed reports, each read from `Results/`.
  static func committed() throws -> [(path: String, report: Report)] {
    let results = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Results")
    let names = try FileManager.default.contentsOfDirectory(atPath: results.path)
      .filter { $0.hasPrefix("20") && $0.hasSuffix(".csv") }.sorted()
    return try names.map { name in
      let path = results.appendingPathComponent(name).path
      return (path, try Report.read(path))
    }
  }

  @Test("The committed reports: two processors, one series each, oldest first")
  func committedMachines() throws {
    let reports = try Self.committed()
    // Given newest first: the series orders them by date all the same.
    let series = ReportSeries(reports.reversed())
    #expect(series.entries.count == reports.count)
    #expect(series.notes.isEmpty, "\(series.notes)")
    let machines = series.byMachine
    #expect(machines.map(\.machine.cpu) == ["AMD EPYC", "Intel(R) Xeon(R) Processor"])
    for (machine, entries) in machines {
      #expect(entries.allSatisfy { $0.machine == machine })
      #expect(entries.map(\.date) == entries.map(\.date).sorted())
      #expect(
        entries.allSatisfy { entry in
          entry.report.results.allSatisfy { Machine($0.environment) == machine }
        })
    }
    // Two of the same host: the name tells them apart by processor.
    let all = machines.map(\.machine)
    #expect(all[0].name(among: all) == "vm (AMD EPYC, 2 cores)")
  }

  @Test("A machine whose report leaves cores out says so, never '0 cores'")
  func coresNotRecorded() {
    var unsaid = Rows.environment
    unsaid.cores = 0
    var one = Rows.environment
    one.cores = 1
    let (base, candidate) = (Machine(unsaid), Machine(one))
    #expect(base.description.hasSuffix(", cores not recorded)"), "\(base)")
    #expect(candidate.description.hasSuffix(", 1 core)"), "\(candidate)")
    #expect(
      base.differences(toCandidate: candidate) == [
        "cores not recorded in the base, 1 core in the candidate"
      ])
    #expect(!base.name(among: [base, candidate]).contains("0 cores"))
    #expect(Machine(Rows.environment).description.hasSuffix(" cores)"))
  }

  @Test(
    "A run given twice is one entry, and a quick sweep's report is left out beside the main job's")
  func mainJobOnce() throws {
    var quick = Rows.environment
    quick.sweep = .quick
    quick.runID = "quick-run"
    quick.date = "2026-11-02T00:00:00Z"
    var main = Rows.environment
    main.sweep = .default
    let mainReport = try Report.read(
      Rows.write(
        Rows.report([Rows.result(Rows.plan(), [10, 10, 10], environment: main)])))
    let quickReport = try Report.read(
      Rows.write(
        Rows.report([Rows.result(Rows.plan(), [20, 20, 20], environment: quick)])))
    let series = ReportSeries([
      ("main.csv", mainReport), ("copy.csv", mainReport), ("quick.csv", quickReport),
    ])
    #expect(series.entries.map(\.path) == ["main.csv"])
    #expect(series.notes.contains { $0.hasPrefix("skipped quick.csv: a quick sweep's report") })
    #expect(series.notes.contains("skipped copy.csv: the same run as main.csv, read once"))
    // Named alone, the quick sweep's report is read.
    #expect(ReportSeries([("quick.csv", quickReport)]).entries.count == 1)
  }

  @Test("The machine's speed is the geometric mean of the reference rows' notify costs")
  func machineSpeed() throws {
    let report = try Report.read(
      Rows.write(
        Rows.report([
          Rows.result(Rows.plan("reference-c"), [2, 2, 2]),
          Rows.result(Rows.plan("reference-swift-closures"), [8, 8, 8]),
          Rows.result(Rows.plan(), [100, 100, 100]),
        ])))
    let speed = try #require(ReportSeries.machineSpeed(of: report.results, n: Rows.plan().n))
    #expect(abs(speed - 4) < 1e-9)
    #expect(ReportSeries.machineSpeed(of: report.results, n: Rows.plan().n + 1) == nil)
  }
}
