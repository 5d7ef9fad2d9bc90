import ArgumentParser
import Foundation
import ObservationHarness
import ObservationReports
import ObservationWorkloads
import ReportFixtures
import SweepFixtures
import Testing

@testable import ObservationReportPage
@testable import ObservatoryCommandLine

/// `observatory report` as a command: what it refuses, and the page it writes (the page itself
/// is `ObservationReportPageTests`').
@Suite("report: the command")
struct ReportCommandTests {
  /// The one-line message `HTMLReport.read` throws for these inputs.
  static func refusal(
    report: String, baseline: String? = nil, conformance: String? = nil
  ) -> String? {
    do {
      _ = try HTMLReport.read(
        report: report, baseline: baseline, conformance: conformance,
        generator: "observatory report")
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test("Bad input is one line naming the file, the line and the problem")
  func badInput() throws {
    let good = PageFixtures.reportPath()
    #expect(Self.refusal(report: "/nonexistent/r.csv") == "/nonexistent/r.csv: no such file")
    // A report with a malformed number on its second row.
    var lines = try String(contentsOfFile: good, encoding: .utf8).split(separator: "\n")
      .map(String.init)
    lines[2] = lines[2].replacingOccurrences(of: ",delivery,", with: ",delivery,x")
    let malformed = Rows.write(lines.joined(separator: "\n") + "\n")
    let message = try #require(Self.refusal(report: malformed))
    #expect(message.hasPrefix("\(malformed):3: "), "\(message)")
    // The conformance matrix: missing, an unknown outcome, a header alone.
    #expect(
      Self.refusal(report: good, conformance: "/nonexistent/m.csv")
        == "/nonexistent/m.csv: no such file")
    let csv = PageFixtures.matrixCSV(rules: [("R-01", "t")], backends: ["array"])
    let badOutcome = Rows.write(csv.replacingOccurrences(of: ",pass,", with: ",passed,"))
    let outcome = try #require(Self.refusal(report: good, conformance: badOutcome))
    #expect(outcome.hasPrefix("\(badOutcome):2: 'passed' is not an outcome"), "\(outcome)")
    let headerOnly = Rows.write(ConformanceMatrixCSV.header + "\n")
    #expect(
      Self.refusal(report: good, conformance: headerOnly)
        == "\(headerOnly): the conformance matrix has a header but no rows")
    let notMatrix = try #require(Self.refusal(report: good, conformance: good))
    #expect(notMatrix.hasPrefix("\(good):1: the header is not"), "\(notMatrix)")
    // A baseline that shares no cell with the report.
    let other = Rows.write(
      Rows.report([(Rows.plan("array", workload: .churn), .finished(Rows.outcome([1, 2, 3])))]))
    let unrelated = try #require(Self.refusal(report: good, baseline: other))
    #expect(unrelated.hasPrefix("\(other) and \(good): the reports share no cell"), "\(unrelated)")
  }

  /// A fresh directory for one case.
  static func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "observatory-report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// What running `observatory` with `arguments` throws, as the tool prints it; `nil` if it
  /// succeeds.
  static func run(_ arguments: [String]) -> String? {
    do {
      let command = try Observatory.parseAsRoot(arguments)
      try command.runAsObservatory()
      return nil
    } catch {
      return Observatory.message(for: error)
    }
  }

  @Test("The command writes the page whole, replaces only with --force, leaves nothing on error")
  func command() throws {
    let directory = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("report.html").path
    let report = PageFixtures.reportPath()
    #expect(Self.run(["report", report, "--output", output]) == nil)
    let written = try String(contentsOfFile: output, encoding: .utf8)
    #expect(written == (try HTMLReport.read(report: report, generator: "observatory report").html))
    // An existing file is kept without --force, replaced with it.
    try "mine\n".write(toFile: output, atomically: true, encoding: .utf8)
    let refused = try #require(Self.run(["report", report, "--output", output]))
    #expect(refused.contains("exists; pass --force"), "\(refused)")
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "mine\n")
    #expect(Self.run(["report", report, "--output", output, "--force"]) == nil)
    #expect(try String(contentsOfFile: output, encoding: .utf8) == written)
    // Bad input: an error naming the file, no page, no temporary file.
    let fresh = directory.appendingPathComponent("other.html").path
    let missing = try #require(Self.run(["report", "/nonexistent.csv", "--output", fresh]))
    #expect(missing == "/nonexistent.csv: no such file")
    #expect(!FileManager.default.fileExists(atPath: fresh))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(leftovers == ["report.html"])
    // --threshold only means something against a baseline.
    let threshold = try #require(
      Self.run(["report", report, "--output", fresh, "--threshold", "3"]))
    #expect(threshold.contains("--threshold goes with --baseline"), "\(threshold)")
  }

  @Test("The command: options of one report are refused with several, and the reverse")
  func options() {
    for arguments in [
      ["a.csv", "b.csv", "--output", "t.html", "--baseline", "c.csv"],
      ["a.csv", "b.csv", "--output", "t.html", "--charts", "d"],
      ["a.csv", "--output", "t.html", "--relative"],
      ["a.csv", "--output", "t.html", "--n", "16"],
      ["a.csv", "b.csv", "--output", "t.html", "--n", "0"],
    ] {
      #expect(throws: (any Error).self, "\(arguments)") { try ReportCommand.parse(arguments) }
    }
    #expect(
      (try? ReportCommand.parse(["a.csv", "b.csv", "--output", "t.html", "--n", "16"])) != nil)
  }
}
