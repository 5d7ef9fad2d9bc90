import ArgumentParser
import Foundation
import ReportFixtures
import SweepFixtures
import TestTraits
import Testing

@testable import ObservationHarness
@testable import ObservatoryCommandLine

@Suite("export")
struct ExportCommandTests {
  /// A committed time report with cells of every status but `failed`.
  static let report = PackageDirectory.appending("Results/2026-11-28_be36b731ab40_vm.csv").path

  /// The message of the error `export` with `arguments` throws, parsing or exporting.
  static func refusal(_ arguments: [String]) -> String? {
    do {
      _ = try ExportCommand.parse(arguments).export()
      return nil
    } catch {
      return Observatory.message(for: error)
    }
  }

  @Test("Bencher: a JSON object of the measured cells, and on standard error what was left out")
  func bencher() throws {
    let (json, notes) = try ExportCommand.parse([Self.report, "--format", "bencher"]).export()
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(document.count == 945)
    #expect(
      notes == [
        "left out 357 cells (capped 274, invalid 3, n/a 80): not measured",
        "the machine and build are the testbed's to name: bencher run --testbed"
          + " vm-intel-r-xeon-r-processor-2-cores-release-static-stdlib",
      ])
  }

  @Test("github-action-benchmark: a JSON array of the measured cells")
  func gitHubActionBenchmark() throws {
    let (json, notes) = try ExportCommand.parse(
      [Self.report, "--format", "github-action-benchmark"]
    ).export()
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    #expect(entries.count == 945)
    #expect(notes == ["left out 357 cells (capped 274, invalid 3, n/a 80): not measured"])
  }

  @Test("A conformance matrix, a missing file, or no --format is refused in one line")
  func refusals() throws {
    let matrix = PackageDirectory.appending("Results/conformance.csv").path
    let message = try #require(Self.refusal([matrix, "--format", "bencher"]))
    #expect(message.hasPrefix("\(matrix): a conformance matrix"), "\(message)")
    #expect(message.hasSuffix("export reads the reports run writes (header 'schema,run_id,...')"))
    #expect(Self.refusal(["no-such.csv", "--format", "bencher"]) == "no-such.csv: no such file")
    let missing = try #require(Self.refusal([Self.report]))
    #expect(missing.contains("--format"), "\(missing)")
    let unknown = try #require(Self.refusal([Self.report, "--format", "csv"]))
    #expect(unknown.contains("bencher") && unknown.contains("github-action-benchmark"))
  }

  @Test("A report without a measured cell is refused: an export with no benchmark is no history")
  func nothingMeasured() throws {
    let capped = Rows.write(
      Rows.report([(Rows.plan(n: 1_048_576), .timedOut), (Rows.plan(n: 4), nil)]))
    let message = try #require(Self.refusal([capped, "--format", "github-action-benchmark"]))
    #expect(
      message
        == "\(capped): no measured cell to export; left out 2 cells (capped 2): not measured")
  }
}
