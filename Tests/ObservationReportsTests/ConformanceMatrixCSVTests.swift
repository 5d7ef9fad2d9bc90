import ObservationReports
import Testing

/// `ConformanceMatrixCSV.rows(fromCSV:)`: what the matrix writes it reads back, and it refuses
/// what the matrix never writes.
@Suite("Conformance matrix CSV reader")
struct ConformanceMatrixCSVTests {
  /// The header of a matrix written before the `traits` column: still read.
  static let header = ConformanceMatrixCSV.headerWithoutTraits

  @Test("Rows written read back as the same rows, with or without the traits column")
  func writtenBack() throws {
    let rows = [
      ConformanceMatrixRow(
        suiteVersion: "1.8.0", rule: "THR-01", group: "THR", level: "CAP(threadSafe)",
        title: "a, \"quoted\" title", traits: ["stochastic", "concurrent"], backend: "b",
        outcome: .probeNotSeenViolated, details: "two\nlines"),
      ConformanceMatrixRow(
        suiteVersion: "1.8.0", rule: "ORD-01", group: "ORD", level: "REQUIRED", title: "t",
        traits: [], backend: "b", outcome: .passed, details: ""),
    ]
    let text = ConformanceMatrixCSV.csv(of: rows)
    #expect(text.hasPrefix(ConformanceMatrixCSV.header + "\n"))
    #expect(text.contains(",concurrent stochastic,"))
    #expect(try ConformanceMatrixCSV.rows(fromCSV: text) == rows)
    let old = try ConformanceMatrixCSV.rows(
      fromCSV: Self.header + "\n1.1.0,ORD-01,ORD,REQUIRED,t,b,pass,\n")
    #expect(ConformanceMatrixCSV.csv(of: old).hasPrefix(Self.header + "\n"))
    #expect(try ConformanceMatrixCSV.rows(fromCSV: ConformanceMatrixCSV.csv(of: old)) == old)
  }

  @Test("A matrix written before the traits column reads, its rows without traits")
  func withoutTraits() throws {
    let rows = try ConformanceMatrixCSV.rows(
      fromCSV: Self.header + "\n1.1.0,ORD-01,ORD,REQUIRED,t,b,pass,\n")
    #expect(rows.map(\.rule) == ["ORD-01"] && rows[0].traits == nil && rows[0].backend == "b")
  }

  @Test("Quoted fields keep commas, doubled quotes, line breaks and an empty last field")
  func quoting() throws {
    let text =
      Self.header + "\r\n"
      + "1.1.0,ORD-01,ORD,CAP(x),\"a, b\",my-backend,probe-observed,\"said \"\"hi\"\"\nthen\"\r\n"
      + "1.1.0,ORD-02,ORD,REQUIRED,t,my-backend,pass,"
    let rows = try ConformanceMatrixCSV.rows(fromCSV: text)
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
        ConformanceMatrixCSV.header + "\n1.1.0,ORD-01,ORD,REQUIRED,t,,b,pass\n", 2,
        "expected 9 fields, found 8"
      ),
      (
        ConformanceMatrixCSV.header + "\n1.1.0,THR-01,THR,REQUIRED,t,concurrent racy,b,pass,\n", 2,
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
    let error = #expect(throws: ConformanceMatrixCSV.Error.self) {
      try ConformanceMatrixCSV.rows(fromCSV: text)
    }
    #expect(error?.line == line)
    #expect(error?.problem.contains(problem) == true, "\(String(describing: error))")
  }
}
