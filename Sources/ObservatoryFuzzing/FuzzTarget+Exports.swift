import Foundation
import ObservationReports

extension FuzzTarget {
  /// The report target's check of both exports: each encodes, parses back as JSON, holds every
  /// measured cell once under a name of its own with the report's cost, and names a testbed
  /// Bencher accepts.
  static func checkExports(_ report: Report) throws(FuzzFinding) {
    let exported = ExportSelection(report.results).exported.filter { $0.cost != nil }
    let names = exported.map(\.cell.benchmarkName)
    guard Set(names).count == names.count else {
      throw FuzzFinding("two exported cells share a benchmark name")
    }
    guard let bencher = try? BencherMetricFormat.json(report.results),
      let document = try? JSONSerialization.jsonObject(with: Data(bencher.utf8))
        as? [String: [String: [String: Double]]]
    else { throw FuzzFinding("the Bencher export is not a JSON object of measures") }
    guard let entries = try? GitHubActionBenchmarkFormat.json(report.results),
      let array = try? JSONSerialization.jsonObject(with: Data(entries.utf8)) as? [[String: Any]]
    else { throw FuzzFinding("the github-action-benchmark export is not a JSON array") }
    guard document.count == exported.count, array.count == exported.count else {
      throw FuzzFinding(
        "\(exported.count) cells measured, \(document.count) Bencher benchmarks,"
          + " \(array.count) github-action-benchmark entries")
    }
    let values = Dictionary(
      uniqueKeysWithValues: array.compactMap { entry -> (String, Double)? in
        guard let name = entry["name"] as? String, let value = entry["value"] as? Double
        else { return nil }
        return (name, value)
      })
    for result in exported {
      let name = result.cell.benchmarkName
      let measure = BencherMetricFormat.measure(of: result.metric)
      guard document[name]?[measure]?["value"] == result.cost, values[name] == result.cost else {
        throw FuzzFinding("\(name): an export's value is not the report's cost")
      }
    }
    if let environment = report.results.first?.environment {
      let testbed = BencherMetricFormat.suggestedTestbed(for: environment)
      guard testbed.count <= BencherMetricFormat.longestTestbed else {
        throw FuzzFinding("a testbed of \(testbed.count) characters")
      }
    }
  }
}
