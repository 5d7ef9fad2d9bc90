/// The CSV report's schema. Version 2, documented in `Results/README.md`; version 1 (no
/// metric: every row a time) is still read; each column says which version added it.
package enum ReportSchema {
  /// The value of the `schema` column this tool writes.
  package static let version = "2"

  /// The header line this tool writes.
  package static var header: String { ReportColumn.header() }

  /// The report's text in the schema `version` (this tool's by default): the header, then one
  /// line per result.
  ///
  /// - Complexity: O(*r* × *c*) for *r* results of *c* columns.
  package static func csv(_ results: [CellResult], version: String = version) -> String {
    let columns = ReportColumn.columns(ofVersion: version) ?? ReportColumn.all
    let lines = results.map { result in
      CSV.line(columns.map { $0.value(result)?.csvText ?? "" })
    }
    return ([columns.map(\.name).joined(separator: ",")] + lines).joined(separator: "\n") + "\n"
  }
}
