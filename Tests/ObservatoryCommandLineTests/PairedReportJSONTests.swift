import Foundation
import ReportFixtures
import Testing

@testable import ObservationHarness
@testable import ObservationReports
@testable import ObservatoryCommandLine

@Suite("ab: the JSON report")
struct PairedReportJSONTests {
  @Test("The JSON says the conclusion and how many cells were inconclusive or regressed")
  func conclusionInJSON() throws {
    let cells = [Comparison.Verdict.unchanged, .inconclusive, .inconclusive].enumerated().map {
      index, verdict in
      var cell = PairedRunner.Entry(cell: Rows.plan(n: 16 << index))
      cell.verdict = verdict
      return cell
    }
    let inconclusive = PairedReport(cells: cells, threshold: 0.05, confidence: 0.95)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(inconclusive.json().utf8)) as? [String: Any])
    #expect(json["conclusion"] as? String == "inconclusive")
    #expect(json["inconclusive"] as? Int == 2 && json["regressions"] as? Int == 0)
  }
}
