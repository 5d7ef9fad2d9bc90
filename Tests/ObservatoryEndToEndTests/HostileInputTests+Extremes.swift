import Foundation
import Testing

/// The defects fuzzing is for, each pinned: extreme but valid numbers, a standard error that
/// is closed or full, an output that is an input, `-` as an output, and values of megabytes.
extension HostileInputTests {
  /// `a.csv` from a small sweep in `directory`, and a copy with `edit` applied to each field of
  /// the first row by column name, written as `name`.
  static func editedReport(
    in directory: URL, name: String, edit: (String, String) -> String
  ) throws {
    let report = try String(contentsOf: directory.appendingPathComponent("a.csv"), encoding: .utf8)
    var lines = report.split(separator: "\n").map(String.init)
    let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    for row in 1..<lines.count {
      let fields = lines[row].split(separator: ",", omittingEmptySubsequences: false)
        .map(String.init)
      lines[row] = zip(header, fields).map { edit($0, $1) }.joined(separator: ",")
    }
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(
      to: directory.appendingPathComponent(name))
  }

  @Test(
    "Extreme finite times read and print in every command, never trap",
    arguments: ["1.7976931348623157e308", "5e-324"])
  func extremeTimes(_ value: String) throws {
    try Self.inScratchWithSweep { directory in
      try Self.editedReport(in: directory, name: "x.csv") { column, field in
        column.hasPrefix("ns_") && !field.isEmpty ? value : field
      }
      for arguments in [
        ["table", "x.csv", "--sizes", "1"], ["compare", "a.csv", "x.csv"],
        ["compare", "x.csv", "x.csv"],
        ["history", "a.csv", "x.csv", "--backend", "array", "--workload", "notify", "--n", "1"],
        ["report", "x.csv", "--output", "x.html"],
        ["report", "a.csv", "x.csv", "--n", "1", "--output", "t.html"],
      ] {
        let result = try BuiltTool.run(arguments, in: directory)
        #expect(!result.signalled, "\(arguments): \(result.errors)")
        #expect([0, 1, 2, 4].contains(result.status), "\(arguments): \(result.errors)")
        // No line of hundreds of digits.
        let longest = (result.output + result.errors).split(separator: "\n").map(\.count).max() ?? 0
        #expect(longest < 2000, "\(arguments): a line of \(longest) characters")
      }
      let table = try BuiltTool.run(["table", "x.csv", "--sizes", "1"], in: directory)
      #expect(table.status == 0, "\(table.errors)")
      #expect(table.output.contains(value.hasPrefix("1.79") ? "1.80e+299 s" : "4.94e-324 ns"))
    }
  }

  @Test("compare's other-machine warning with standard error full or closed: no trap, the status")
  func warningToFullError() throws {
    try Self.inScratchWithSweep { directory in
      try Self.editedReport(in: directory, name: "b.csv") { column, field in
        column == "host" ? "another-host" : field
      }
      let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
      let toFull = try BuiltTool.run(
        ["compare", "a.csv", "b.csv", "--allow-other-machine"], in: directory, errors: full)
      #expect(!toFull.signalled)
      #expect([0, 2, 4].contains(toFull.status), "status \(toFull.status)")
      #expect(toFull.output.contains("cells compared"), "\(toFull.output)")
      // Closed: the shell's `2>&-`.
      let closed = try Self.runShell(
        "\"$0\" compare a.csv b.csv --allow-other-machine 2>&-; echo \"status $?\"", in: directory)
      #expect(closed.contains("cells compared") && !closed.contains("status 1"), "\(closed)")
      #expect(!closed.contains("status 13") && !closed.contains("status 132"), "\(closed)")
    }
  }

  /// Runs `body` in a fresh scratch directory that holds `a.csv`, the report of a small sweep
  /// (``smallSweep``), and removes the directory afterwards.
  static func inScratchWithSweep(_ body: (URL) throws -> Void) throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let sweep = try BuiltTool.run(smallSweep + ["--output", "a.csv"], in: directory)
    try #require(sweep.status == 0, "\(sweep.errors)")
    try body(directory)
  }

  /// Runs `script` in `sh` with the tool as `$0`, and returns its standard output.
  static func runShell(_ script: String, in directory: URL) throws -> String {
    let tool = try #require(BuiltTool.tool)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script, tool.path]
    process.currentDirectoryURL = directory
    process.environment = BuiltTool.environment(adding: [:])
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  @Test("An output that is one of the inputs is refused, --force or not, and the input kept")
  func outputIsAnInput() throws {
    try Self.inScratchWithSweep { directory in
      try FileManager.default.copyItem(
        at: directory.appendingPathComponent("a.csv"),
        to: directory.appendingPathComponent("b.csv"))
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: directory.appendingPathComponent("link.csv").path, withDestinationPath: "a.csv")
      let before = try Data(contentsOf: directory.appendingPathComponent("a.csv"))
      for arguments in [
        ["report", "a.csv", "b.csv", "--n", "1", "--output", "a.csv", "--force"],
        ["report", "a.csv", "b.csv", "--n", "1", "--output", "sub/../a.csv", "--force"],
        ["report", "a.csv", "--output", "./a.csv", "--force"],
        ["report", "b.csv", "--baseline", "a.csv", "--output", "a.csv", "--force"],
        ["report", "link.csv", "--output", "a.csv", "--force"],
      ] {
        let result = try BuiltTool.run(arguments, in: directory)
        #expect(result.status == 1 && !result.signalled, "\(arguments): \(result.errors)")
        #expect(result.errors.contains("is also an input of this command"), "\(result.errors)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("a.csv")) == before)
      }
      #expect(Self.leftovers(directory).isEmpty, "\(Self.leftovers(directory))")
    }
  }

  @Test("'-' is standard output for report, and refused clearly where a file is needed")
  func dashIsStandardOutput() throws {
    try Self.inScratchWithSweep { directory in
      let page = try BuiltTool.run(["report", "a.csv", "--output", "-"], in: directory)
      #expect(page.status == 0, "\(page.errors)")
      #expect(page.output.hasPrefix("<!DOCTYPE html>"), "\(page.output.prefix(80))")
      let trends = try BuiltTool.run(
        ["report", "a.csv", "a.csv", "--n", "1", "--output", "-"], in: directory)
      #expect(trends.status == 0 && trends.output.hasPrefix("<!DOCTYPE html>"), "\(trends.errors)")
      #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("-").path))
      let matrix = try BuiltTool.run(
        ["conformance", "--backend", "linked-list", "--output-directory", "-"], in: directory)
      #expect(matrix.status == 1, "\(matrix.errors)")
      #expect(matrix.errors.contains("--output-directory '-': standard output holds no directory"))
      let baseline = try BuiltTool.run(["baseline", "record", "--baseline", "-"], in: directory)
      #expect(baseline.status == 1, "\(baseline.errors)")
      #expect(baseline.errors.contains("stands for standard output"), "\(baseline.errors)")
      #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("-").path))
    }
  }

  @Test("An error line names a long value shortened, with its length")
  func boundedErrorLines() throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let threads = Array(repeating: "1", count: 55_000).joined(separator: ",")
    let digits = String(repeating: "9", count: 100_000)
    // A cell request of another protocol exits with the cell's own status for that (3), which
    // `ab` reads; the others with 1.
    for (arguments, status): ([String], Int32) in [
      (["run", "--allow-debug", "--threads", threads], 1),
      (
        [
          "cell", "--protocol", digits, "--backend", "array", "--workload", "notify", "--n", "1",
          "--repetitions", "1", "--budget", "1",
        ], 3
      ),
      (["table", String(repeating: "x", count: 5000) + ".csv"], 1),
    ] {
      let result = try BuiltTool.run(arguments, in: directory)
      #expect(result.status == status && !result.signalled, "\(result.errors.prefix(300))")
      #expect(
        result.errors.count < 1000,
        "\(result.errors.count) characters: \(result.errors.prefix(300))")
      #expect(result.errors.contains("characters)"), "\(result.errors)")
    }
  }
}
