import ArgumentParser
import Foundation
import ReportFixtures
import SweepFixtures
import TestTraits
import Testing

@testable import ObservationHarness
@testable import ObservationReports
@testable import ObservatoryCommandLine

@Suite("compare")
struct CompareTests {
  @Test("Every cell 1000 times slower, the reference rows too: not comparable, naming them")
  func machineSpeedsTooFarApart() throws {
    let everyBackend = Dictionary(
      uniqueKeysWithValues: ComparedReports.backends.map { ($0, 1000.0) })
    let base = Rows.write(ComparedReports.report())
    let slower = Rows.write(ComparedReports.report(factors: everyBackend, machine: 1000))
    let message = try Self.refusal(["compare", base, slower])
    #expect(message.contains("reference rows"), "\(message)")
    #expect(message.contains("factor of 1000"), "\(message)")
    #expect(message.contains("reference-c/notify/-/16"), "\(message)")
    #expect(message.contains("(×1000)"), "\(message)")
  }

  /// The message `arguments` are refused with, raised while running: a validation error is
  /// one line and exit status 1. Empty, with an issue recorded, if the command ran through.
  static func refusal(_ arguments: [String]) throws -> String {
    let command = try Observatory.parseAsRoot(arguments)
    do {
      try command.runAsObservatory()
      Issue.record("expected \(arguments) to be refused")
      return ""
    } catch {
      #expect(error is ValidationError)
      return Observatory.fullMessage(for: error)
    }
  }

  @Test("Timed reports of another host, CPU or core count are refused unless allowed")
  func otherMachine() throws {
    var other = Rows.environment
    other.host = "elsewhere"
    other.cores = 64
    let base = Rows.write(ComparedReports.report())
    let candidate = Rows.write(ComparedReports.report(environment: other))
    let message = try Self.refusal(["compare", base, candidate])
    #expect(message.contains("host 'host' in the base, 'elsewhere' in the candidate"))
    #expect(message.contains("2 cores in the base, 64 cores in the candidate"))
    #expect(message.contains("--allow-other-machine"))
    let command = try Observatory.parseAsRoot(
      ["compare", base, candidate, "--allow-other-machine"])
    try command.runAsObservatory()
    let comparison = try Comparison(
      base: try ReportReader.read(base), candidate: try ReportReader.read(candidate),
      threshold: 0.05, allowingOtherMachine: true)
    #expect(comparison.machineDifferences.count == 2)
    #expect(comparison.text().contains("The runs are of different machines"))
  }

  @Test(
    "Reports of different builds are refused in either metric, allowed machines or not",
    arguments: [Metric.time, .instructions])
  func otherBuild(metric: Metric) throws {
    var linkedIn = Rows.environment
    linkedIn.build = "release-static-stdlib"
    let outcome = metric == .time ? Rows.outcome([100, 101, 102]) : Rows.counted([50])
    let base = Rows.write(
      Rows.report([(Rows.plan(), .finished(outcome))], metric: metric))
    let candidate = Rows.write(
      Rows.report([(Rows.plan(), .finished(outcome))], environment: linkedIn, metric: metric))
    let message = try Self.refusal(["compare", base, candidate, "--allow-other-machine"])
    #expect(
      message.contains(
        "different builds ('release' in the base, 'release-static-stdlib' in the candidate)"))
    #expect(message.contains("`ab`"))
    var same = Rows.environment
    same.runID = "run2"
    let again = Rows.write(
      Rows.report([(Rows.plan(), .finished(outcome))], environment: same, metric: metric))
    let command = try Observatory.parseAsRoot(["compare", base, again])
    try command.runAsObservatory()
  }

  @Test("A regression's verdict is bold in the Markdown")
  func markdownRegression() throws {
    let comparison = try ComparedReports.compare(
      ComparedReports.report(), ComparedReports.report(factors: ["array": 1.3]))
    #expect(comparison.markdown().contains("**regression**"))
    #expect(!comparison.markdown().contains("**unchanged**"))
  }

  @Test("The full sweep's Markdown fits a pull-request comment")
  func markdownSize() throws {
    let results = PackageDirectory.appending("Results")
    // Two full reports of neighbouring commits: hundreds of cells changed, capped or new.
    let base = try ReportReader.read(
      results.appendingPathComponent("2026-11-23_e4202d2fd5eb_vm.csv").path)
    let candidate = try ReportReader.read(
      results.appendingPathComponent("2026-11-23_6e57e24443f6_vm.csv").path)
    #expect(base.count > 700 && candidate.count > 700)
    let comparison = try Comparison(base: base, candidate: candidate, threshold: 0.05)
    let markdown = comparison.markdown()
    #expect(markdown.count < 60_000, "\(markdown.count) characters")
    #expect(comparison.markdown(changesOnly: true).count < markdown.count)
  }

  @Test("The command exits 2 on a regression and 0 without one")
  func exitCodes() throws {
    let base = Rows.write(ComparedReports.report())
    let slower = Rows.write(ComparedReports.report(factors: ["array": 1.5]))
    var command = try Observatory.parseAsRoot(["compare", base, slower])
    #expect(throws: ExitCode(2)) { try command.runAsObservatory() }
    command = try Observatory.parseAsRoot(["compare", base, base, "--format", "markdown"])
    try command.runAsObservatory()
    command = try Observatory.parseAsRoot(["compare", base, base, "--changes-only"])
    try command.runAsObservatory()
  }

  @Test("Exit statuses: 2 on a regression, 4 on inconclusive cells (0 when accepted), else 0")
  func exitStatuses() {
    #expect(ExitStatus(.regression, acceptingInconclusive: false) == .regression)
    #expect(ExitStatus(.regression, acceptingInconclusive: true) == .regression)
    #expect(ExitStatus(.inconclusive, acceptingInconclusive: false) == .inconclusive)
    #expect(ExitStatus(.inconclusive, acceptingInconclusive: true) == .success)
    #expect(ExitStatus(.noRegression, acceptingInconclusive: false) == .success)
    #expect(ExitStatus(.noRegression, acceptingInconclusive: true) == .success)
    // What scripts rely on: a regression stays 2, and the statuses are those documented.
    #expect(ExitStatus.incompatibleCellRequest.rawValue == CellChild.incompatibleExitStatus)
    #expect(ExitStatus.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
    #expect(ExitStatus.regression.rawValue == 2 && ExitStatus.inconclusive.rawValue == 4)
  }

  @Test("The command exits 4 on inconclusive cells, 0 with --inconclusive-ok, 2 on a regression")
  func inconclusiveExitCodes() throws {
    let (base, weather, regressed) = ComparedReports.inconclusiveReports()
    let inconclusive = try Comparison(
      base: try ReportReader.read(base), candidate: try ReportReader.read(weather),
      threshold: 0.05)
    #expect(inconclusive.conclusion == .inconclusive)
    #expect(inconclusive.inconclusive.map(\.key) == ["jemalloc/linked-list/notify/-/1024/0"])
    let both = try Comparison(
      base: try ReportReader.read(base), candidate: try ReportReader.read(regressed),
      threshold: 0.05)
    #expect(!both.regressions.isEmpty && !both.inconclusive.isEmpty)
    #expect(both.conclusion == .regression)

    var command = try Observatory.parseAsRoot(["compare", base, weather])
    #expect(throws: ExitCode(4)) { try command.runAsObservatory() }
    command = try Observatory.parseAsRoot(["compare", base, weather, "--inconclusive-ok"])
    try command.runAsObservatory()
    for arguments in [
      ["compare", base, regressed], ["compare", base, regressed, "--inconclusive-ok"],
    ] {
      command = try Observatory.parseAsRoot(arguments)
      #expect(throws: ExitCode(2)) { try command.runAsObservatory() }
    }
  }

  @Test("Input errors are reported as usage errors naming the file")
  func inputErrors() throws {
    let base = Rows.write(ComparedReports.report())
    let command = try Observatory.parseAsRoot(["compare", base, "/nonexistent.csv"])
    do {
      try command.runAsObservatory()
      Issue.record("expected an error")
    } catch {
      #expect(Observatory.exitCode(for: error) != .success)
      #expect(Observatory.fullMessage(for: error).contains("/nonexistent.csv: no such file"))
    }
    #expect(throws: (any Error).self) {
      try Observatory.parseAsRoot(["compare", base, base, "--format", "xml"])
    }
    #expect(throws: (any Error).self) {
      try Observatory.parseAsRoot(["compare", base, base, "--threshold", "nan"])
    }
  }
}
