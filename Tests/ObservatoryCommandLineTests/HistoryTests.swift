import ArgumentParser
import Foundation
import ObservationWorkloads
import ReportFixtures
import SweepFixtures
import TestTraits
import Testing

@testable import ObservationHarness
@testable import ObservationReports
@testable import ObservatoryCommandLine

@Suite("history")
struct HistoryTests {
  @Test("One cell across reports, oldest first, with the change from the previous one")
  func trend() throws {
    var early = Rows.environment
    early.date = "2026-11-01T00:00:00Z"
    early.commit = "early"
    var late = Rows.environment
    late.date = "2026-11-15T00:00:00Z"
    late.commit = "late"
    let lateReport = Rows.report(
      [(Rows.plan(), .finished(Rows.outcome([20, 20, 20])))], environment: late)
    let earlyReport = Rows.report(
      [(Rows.plan(), .finished(Rows.outcome([10, 10, 10])))], environment: early)
    let rows =
      try Report.read(Rows.write(lateReport)).results
      + Report.read(Rows.write(earlyReport)).results
    let table = HistoryCommand.table(rows)
    let lines = table.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[1].contains("early") && lines[2].contains("late"))
    #expect(lines[2].contains("+100.0%"))
  }

  @Test("The committed reports of two processors: one trend each, no change across them")
  func committedMachines() throws {
    let results = PackageDirectory.appending("Results")
    let paths = try FileManager.default.contentsOfDirectory(atPath: results.path)
      .filter { $0.hasSuffix(".csv") }.sorted().map { results.appendingPathComponent($0).path }
    let command = try HistoryCommand.parse(
      paths + ["--backend", "dense", "--workload", "notify", "--n", "1024"])
    let (rows, notes) = try command.matchingRows()
    #expect(notes.contains { $0.hasPrefix("the rows come from 2 machines") }, "\(notes)")
    let table = HistoryCommand.table(rows)
    let trends = table.components(separatedBy: "\n\n")
    #expect(trends.count == 2, "\(table)")
    // The AMD machine's two reports, then the Xeon's: each trend's first row has no change.
    #expect(trends[0].hasPrefix("vm (AMD EPYC, 2 cores):\n"), "\(table)")
    #expect(trends[1].hasPrefix("vm (Intel(R) Xeon(R) Processor, 2 cores):\n"), "\(table)")
    for trend in trends {
      let lines = trend.split(separator: "\n")
      #expect(lines[2].split(separator: " ").last == "-", "\(trend)")
      // Every row of a trend is of its machine's reports.
      let commits = Set(
        rows.filter { trend.hasPrefix("\(Machine($0.environment)):") }.map(\.environment.commit))
      #expect(lines.dropFirst(2).allSatisfy { line in commits.contains { line.contains($0) } })
    }
    #expect(trends[0].split(separator: "\n").count == 4)
  }

  @Test("A report of another build names the build instead of a change")
  func buildChange() throws {
    var dynamic = Rows.environment
    dynamic.date = "2026-11-01T00:00:00Z"
    var linkedIn = Rows.environment
    linkedIn.date = "2026-11-15T00:00:00Z"
    linkedIn.build = "release-static-stdlib"
    var later = linkedIn
    later.date = "2026-11-20T00:00:00Z"
    var rows: [CellResult] = []
    for (environment, cost) in [(dynamic, 20.0), (linkedIn, 16), (later, 18)] {
      let report = Rows.report(
        [(Rows.plan(), .finished(Rows.outcome([cost, cost, cost])))], environment: environment)
      rows += try Report.read(Rows.write(report)).results
    }
    let lines = HistoryCommand.table(rows).split(separator: "\n")
    #expect(lines.count == 4)
    #expect(lines[2].hasSuffix("release-static-stdlib build"))
    #expect(!lines[2].contains("%"))
    #expect(lines[3].hasSuffix("+12.5%"))
  }

  @Test("No matching row is an error that says what was looked for")
  func noMatch() throws {
    let path = Rows.write(Rows.report([(Rows.plan(), .finished(Rows.outcome([1, 2, 3])))]))
    let command = try Observatory.parseAsRoot([
      "history", path, "--backend", "array", "--workload", "notify", "--n", "16",
    ])
    #expect(throws: ValidationError.self) { try command.runAsObservatory() }
  }

  @Test(
    "Over Results/*.csv, quick and partial reports are skipped and counts left out, saying so")
  func mainJobOnly() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: directory) }
    func write(
      _ name: String, commit: String, metric: Metric = .time, sweep: SweepKind?
    ) throws -> String {
      var environment = Rows.environment
      environment.commit = commit
      environment.sweep = sweep
      let outcome = metric == .time ? Rows.outcome([1, 2, 3]) : Rows.counted([50])
      let path = directory.appendingPathComponent(name).path
      try Rows.report([(Rows.plan(), .finished(outcome))], environment: environment, metric: metric)
        .write(toFile: path, atomically: true, encoding: .utf8)
      return path
    }
    let main = try write("2026-11-20_main_host.csv", commit: "main", sweep: .default)
    let retake = try write("2026-11-20_main_host_2.csv", commit: "retake", sweep: .default)
    let quick = try write("2026-11-21_quick_host_quick.csv", commit: "quick", sweep: .quick)
    let partial = try write(
      "2026-11-22_partial_host_partial_3.csv", commit: "partial", sweep: .partial)
    let counts = try write(
      "2026-11-23_counts_host_instructions.csv", commit: "counts", metric: .instructions,
      sweep: .default)
    let cell = ["--backend", "linked-list", "--workload", "notify", "--n", "16"]

    let all = try HistoryCommand.parse([main, retake, quick, partial, counts] + cell)
      .matchingRows()
    #expect(all.rows.map { $0.environment.commit } == ["main", "retake"])
    #expect(
      all.notes == [
        "skipped \(quick): a quick sweep's report, not the main job's (name it without the main"
          + " job's reports to follow it)",
        "skipped \(partial): a partial sweep's report, not the main job's (name it without the"
          + " main job's reports to follow it)",
        "left out 1 instruction-count row(s); pass --metric instructions to follow them",
      ])
    let counted = try HistoryCommand.parse(
      [main, quick, counts] + cell + ["--metric", "instructions"]
    ).matchingRows()
    #expect(counted.rows.map { $0.environment.commit } == ["counts"])
    // Named without the main job's reports, quick and partial reports are followed.
    let narrow = try HistoryCommand.parse([quick, partial] + cell).matchingRows()
    #expect(
      narrow.rows.map { $0.environment.commit } == ["quick", "partial"] && narrow.notes.isEmpty)

    // The column is the writer's word, whatever the file is called: a quick sweep's report
    // under a name of the user's is still skipped, and a main job's report under a suffixed
    // name is still followed.
    let renamed = try write("mine.csv", commit: "renamed", sweep: .quickPartial)
    let suffixed = try write("2026-11-24_x_host_quick.csv", commit: "suffixed", sweep: .default)
    let byColumn = try HistoryCommand.parse([main, renamed, suffixed] + cell).matchingRows()
    #expect(byColumn.rows.map { $0.environment.commit } == ["main", "suffixed"])
    #expect(byColumn.notes.first?.hasPrefix("skipped \(renamed): a quick-partial sweep's") == true)

    // A report that does not say (schema 4 and older) is known by its default name.
    func writeSchema4(_ name: String, commit: String) throws -> String {
      var environment = Rows.environment
      environment.commit = commit
      environment.sweep = nil
      let text = Rows.report(
        [(Rows.plan(), .finished(Rows.outcome([1, 2, 3])))], environment: environment)
      let rows = try Report.read(Rows.write(text)).results
      let path = directory.appendingPathComponent(name).path
      try Rows.csv(rows, asSchema: "4").write(toFile: path, atomically: true, encoding: .utf8)
      return path
    }
    let olderMain = try writeSchema4("2026-11-10_old_host.csv", commit: "old")
    let olderQuick = try writeSchema4("2026-11-11_oldq_host_quick.csv", commit: "oldq")
    let older = try HistoryCommand.parse([olderMain, olderQuick, main] + cell).matchingRows()
    #expect(older.rows.map { $0.environment.commit } == ["old", "main"])
    #expect(
      older.notes == [
        "skipped \(olderQuick): a quick or partial sweep's report, not the main job's (name it"
          + " without the main job's reports to follow it)"
      ])
  }

  @Test("A nested cell is matched at its depth: 3 unless --depth says otherwise")
  func nestedDepth() throws {
    var deep = Rows.plan(workload: .nested, n: 16)
    deep.pattern = .leaf
    deep.depth = 8
    let path = Rows.write(Rows.report([(deep, .finished(Rows.outcome([1, 2, 3])))]))
    let arguments = [
      "history", path, "--backend", "linked-list", "--workload", "nested", "--pattern", "leaf",
      "--n", "16",
    ]
    let atDefault = try HistoryCommand.parse(Array(arguments.dropFirst()))
    #expect(atDefault.plannedDepth == 3)
    do {
      try atDefault.runAsObservatory()
      Issue.record("a depth-8 row matched the default depth 3")
    } catch {
      #expect("\(error)".contains("depth 3"))
    }
    let atEight = try HistoryCommand.parse(Array(arguments.dropFirst()) + ["--depth", "8"])
    try atEight.runAsObservatory()
  }
}
