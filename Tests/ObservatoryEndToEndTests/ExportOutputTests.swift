import Foundation
import TestTraits
import Testing

/// `export`'s output file, from the built tool.
@Suite(
  "export, from the built tool",
  .notUnderAddressSanitizer("a process of the tool, whose code the other tests run in process"))
struct ExportOutputTests {
  /// The committed report the export reads.
  static let report = PackageDirectory.appending("Results/2026-11-28_be36b731ab40_vm.csv").path

  @Test("The tool writes --output, refuses to replace it without --force, and never the report")
  func output() throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("bmf.json").path
    let arguments = ["export", Self.report, "--format", "bencher", "--output", output]

    let first = try BuiltTool.run(arguments, in: directory)
    #expect(first.status == 0, "\(first.errors)")
    #expect(first.output.isEmpty)
    #expect(first.errors.contains("observatory export: left out 357 cells (capped 274"))
    let written = try String(contentsOfFile: output, encoding: .utf8)
    #expect(written.hasPrefix("{\n"))

    try "kept".write(toFile: output, atomically: false, encoding: .utf8)
    let again = try BuiltTool.run(arguments, in: directory)
    #expect(again.status == 1)
    #expect(
      again.errors.hasPrefix("observatory: error: --output '\(output)': exists; pass --force"))
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "kept")

    let forced = try BuiltTool.run(arguments + ["--force"], in: directory)
    #expect(forced.status == 0, "\(forced.errors)")
    #expect(try String(contentsOfFile: output, encoding: .utf8) == written)

    let copy = directory.appendingPathComponent("report.csv").path
    try FileManager.default.copyItem(atPath: Self.report, toPath: copy)
    let overInput = try BuiltTool.run(
      ["export", copy, "--format", "bencher", "--output", copy, "--force"], in: directory)
    #expect(overInput.status == 1)
    #expect(overInput.errors.contains("is also an input of this command"))
    #expect(
      try String(contentsOfFile: copy, encoding: .utf8)
        == String(contentsOfFile: Self.report, encoding: .utf8))

    let toStandardOutput = try BuiltTool.run(
      ["export", Self.report, "--format", "github-action-benchmark"], in: directory)
    #expect(toStandardOutput.status == 0, "\(toStandardOutput.errors)")
    #expect(toStandardOutput.output.hasPrefix("[\n"))
  }
}
