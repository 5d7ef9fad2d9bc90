import ObservationReports

extension FuzzTarget {
  /// The matrix target: read; if it reads, written back and read again to the same rows.
  static func checkMatrix(_ input: [UInt8]) throws(FuzzFinding) {
    guard let text = String(validating: input, as: UTF8.self),
      let rows = try? ConformanceMatrixCSV.rows(fromCSV: text)
    else { return }
    let written = ConformanceMatrixCSV.csv(of: rows)
    let again: [ConformanceMatrixRow]
    do { again = try ConformanceMatrixCSV.rows(fromCSV: written) } catch {
      throw FuzzFinding("rows that read were written back to text that does not read: \(error)")
    }
    guard again == rows else {
      throw FuzzFinding("rows written back and read again differ")
    }
  }
}
