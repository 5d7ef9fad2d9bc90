import ArrayBackend
import ObservationConformance
import ObservationReports
import Testing

@testable import ObservatoryCommandLine

/// The matrix `conformance` writes: its CSV is the suite's reports, row for row.
@Suite("Conformance matrix files")
struct ConformanceMatrixTests {
  @Test("A matrix's CSV reads back as its reports, outcome and prose")
  func roundTrip() throws {
    let report = ConformanceSuite.run(ArrayStrategy())
    let rows = try ConformanceMatrixCSV.rows(fromCSV: ConformanceMatrix([report]).csv)
    #expect(rows.count == report.results.count)
    for (row, result) in zip(rows, report.results) {
      #expect(row.suiteVersion == report.suiteVersion)
      #expect(row.rule == result.rule.id.rawValue)
      #expect(row.title == result.rule.title)
      #expect(row.backend == report.backendName)
      #expect(row.outcome == ConformanceOutcome(result.outcome.kind))
      #expect(row.details == result.outcome.details)
      #expect(row.traits == Set(result.rule.traits.map(\.name)))
    }
    // What the CI script asks instead of a rule's prefix: every THR rule is concurrent.
    let concurrent = rows.filter { $0.traits?.contains("concurrent") == true }.map(\.rule)
    #expect(!concurrent.isEmpty && concurrent.allSatisfy { $0.hasPrefix("THR-") })
  }
}
