import ArrayBackend
import ObservationConformance
import Testing

/// `ConformanceMatrix.rows(fromCSV:)`: what the matrix writes it reads back, and it refuses
/// what the matrix never writes.
@Suite("Conformance matrix CSV reader")
struct ConformanceMatrixReaderTests {
  static let header = ConformanceMatrix.csvHeader

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
    }
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
