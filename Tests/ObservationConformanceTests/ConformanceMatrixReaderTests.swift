import ArrayBackend
import ObservationConformance
import Testing

/// `ConformanceMatrix.rows(fromCSV:)`: what the matrix writes it reads back, and it refuses
/// what the matrix never writes.
@Suite("Conformance matrix CSV reader")
struct ConformanceMatrixReaderTests {
  /// The header of a matrix written before the `traits` column: still read.
  static let header = ConformanceMatrix.csvHeaderWithoutTraits

  @Test("A matrix's CSV reads back as its reports, outcome and prose")
  func roundTrip() throws {
    let report = ConformanceSuite.run(ArrayStrategy())
    let rows = try ConformanceMatrix.rows(fromCSV: ConformanceMatrix([report]).csv)
    #expect(rows.count == report.results.count)
    for (row, result) in zip(rows, report.results) {
      #expect(row.suiteVersion == report.suiteVersion)
      #expect(row.rule == result.rule.id.rawValue)
      #expect(row.title == result.rule.title)
      #expect(row.backend == report.backendName)
      #expect(row.outcome == result.outcome.kind)
      #expect(row.details == result.outcome.details)
      #expect(row.traits == Set(result.rule.traits.map(\.name)))
    }
    // What the CI script asks instead of a rule's prefix: every THR rule is concurrent.
    let concurrent = rows.filter { $0.traits?.contains("concurrent") == true }.map(\.rule)
    #expect(!concurrent.isEmpty && concurrent.allSatisfy { $0.hasPrefix("THR-") })
  }

  @Test("A matrix written before the traits column reads, its rows without traits")
  func withoutTraits() throws {
    let rows = try ConformanceMatrix.rows(
      fromCSV: Self.header + "\n1.1.0,ORD-01,ORD,REQUIRED,t,b,pass,\n")
    #expect(rows.map(\.rule) == ["ORD-01"] && rows[0].traits == nil && rows[0].backend == "b")
  }

  @Test("Quoted fields keep commas, doubled quotes, line breaks and an empty last field")
  func quoting() throws {
    let text =
      Self.header + "\r\n"
      + "1.1.0,ORD-01,ORD,CAP(x),\"a, b\",my-backend,probe-observed,\"said \"\"hi\"\"\nthen\"\r\n"
      + "1.1.0,ORD-02,ORD,REQUIRED,t,my-backend,pass,"
    let rows = try ConformanceMatrix.rows(fromCSV: text)
    #expect(rows.map(\.rule) == ["ORD-01", "ORD-02"])
    #expect(rows[0].title == "a, b")
    #expect(rows[0].details == "said \"hi\"\nthen")
    #expect(rows[0].outcome == .probeObserved)
    #expect(rows[1].details == "")
  }

  @Test(
    "Refused: another header, a short record, an unknown outcome, an open quote, a repeated cell",
    arguments: [
      ("rule,backend,outcome\n", 1, "the header is not"),
      (header + "\n1.1.0,ORD-01,ORD,REQUIRED,t,b,pass\n", 2, "expected 8 fields, found 7"),
      (
        ConformanceMatrix.csvHeader + "\n1.1.0,ORD-01,ORD,REQUIRED,t,,b,pass\n", 2,
        "expected 9 fields, found 8"
      ),
      (
        ConformanceMatrix.csvHeader + "\n1.1.0,THR-01,THR,REQUIRED,t,concurrent racy,b,pass,\n", 2,
        "'racy' is not a rule trait"
      ),
      (header + "\n1.1.0,ORD-01,ORD,REQUIRED,t,b,passed,\n", 2, "'passed' is not an outcome"),
      (header + "\n1.1.0,ORD-01,ORD,REQUIRED,\"t,b,pass,\n", 2, "never closed"),
      (
        header + "\n1.1.0,ORD-01,ORD,REQUIRED,t,b,pass,\n1.1.0,ORD-01,ORD,REQUIRED,t,b,fail,\n", 3,
        "ORD-01 on b appears twice (first on line 2)"
      ),
    ])
  func refusals(_ text: String, _ line: Int, _ problem: String) {
    let error = #expect(throws: ConformanceMatrix.CSVError.self) {
      try ConformanceMatrix.rows(fromCSV: text)
    }
    #expect(error?.line == line)
    #expect(error?.problem.contains(problem) == true, "\(String(describing: error))")
  }
}
