import Foundation
import TestTraits
import Testing

@testable import ObservationReports
@testable import ObservatoryCommandLine

/// `--format json`, run as a CI tool runs it: the built executable, its standard output parsed.
@Suite("JSON output")
struct JSONOutputTests {
  static let results = PackageDirectory.appending("Results")
  static let base = results.appendingPathComponent("2026-11-23_e4202d2fd5eb_vm.csv").path
  static let candidate = results.appendingPathComponent("2026-11-23_6e57e24443f6_vm.csv").path

  private func object(_ arguments: [String]) throws -> (status: Int32, json: [String: Any]) {
    let run = try BuiltTool.run(
      arguments, in: FileManager.default.temporaryDirectory)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any],
      "not a JSON object: \(run.output.prefix(200)) \(run.errors)")
    return (run.status, json)
  }

  @Test("compare: every cell with both results and its verdict; the exit status agrees")
  func compare() throws {
    let (status, json) = try object(["compare", Self.base, Self.candidate, "--format", "json"])
    let cells = try #require(json["cells"] as? [[String: Any]])
    let comparison = try Comparison(
      base: try ReportReader.read(Self.base), candidate: try ReportReader.read(Self.candidate),
      threshold: 0.05)
    #expect(cells.count == comparison.cells.count)
    #expect(json["regressions"] as? Int == comparison.regressions.count)
    #expect(json["inconclusive"] as? Int == comparison.inconclusive.count)
    #expect(json["conclusion"] as? String == comparison.conclusion.rawValue)
    #expect(status == ExitStatus(comparison.conclusion, acceptingInconclusive: false).rawValue)
    let first = try #require(cells.first)
    #expect(first["verdict"] is String && first["cell"] is String)
    #expect((first["base"] as? [String: Any])?["n"] is Int)
    #expect(json["metric"] as? String == "time")
  }

  @Test("table: the results the table shows")
  func table() throws {
    let (status, json) = try object([
      "table", Self.candidate, "--format", "json", "--sizes", "1024",
    ])
    #expect(status == 0)
    let results = try #require(json["results"] as? [[String: Any]])
    #expect(!results.isEmpty && results.allSatisfy { $0["n"] as? Int == 1024 })
    #expect(
      Set(results.compactMap { $0["workload"] as? String }) == ["notify", "subscribe", "cancel"])
  }

  @Test("conformance: every rule's outcome per backend")
  func conformance() throws {
    let (status, json) = try object([
      "conformance", "--backend", "linked-list", "--in-process", "--format", "json",
    ])
    #expect(status == 0)
    let backends = try #require(json["backends"] as? [[String: Any]])
    #expect(backends.count == 1 && backends[0]["backend"] as? String == "linked-list")
    let rules = try #require(backends[0]["rules"] as? [[String: Any]])
    #expect(rules.count > 70)
    #expect(
      rules.contains { $0["rule"] as? String == "DEL-01" && $0["outcome"] as? String == "pass" })
  }

  @Test("run --format json needs an explicit output, and conformance's goes to standard output")
  func refusals() throws {
    let directory = FileManager.default.temporaryDirectory
    let run = try BuiltTool.run(
      ["run", "--allow-debug", "--format", "json", "--sizes", "1"], in: directory)
    #expect(run.status == 1 && run.errors.contains("--format json needs --output"))
    let conformance = try BuiltTool.run(
      ["conformance", "--format", "json", "--output-directory", directory.path], in: directory)
    #expect(conformance.status == 1 && conformance.errors.contains("prints to standard output"))
  }

  @Test("run --format json writes the sweep's results, readable back as a Report")
  func runWritesJSON() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "observatory-json-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let run = try BuiltTool.run(
      [
        "run", "--allow-debug", "--format", "json", "--output", "-", "--backend", "array",
        "--workload", "notify", "--sizes", "4", "--repetitions", "1", "--processes", "1",
        "--allocator", "system", "--quiet",
      ], in: directory)
    #expect(run.status == 0, "\(run.errors)")
    let report = try JSONDecoder().decode(Report.self, from: Data(run.output.utf8))
    #expect(
      Set(report.results.map(\.cell.backend)) == [
        "reference-c", "reference-c-swift-handler", "reference-swift-closures",
        "reference-async-tasks", "array",
      ])
    #expect(report.results.allSatisfy { $0.status.isMeasured && $0.cost != nil })
  }
}
