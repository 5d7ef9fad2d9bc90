/// The CSV report's schema. Version 5, documented in `Results/README.md`; versions 4 (no
/// `sweep`: which sweep wrote it is known only from its default name), 3 (no `row_kind` either:
/// a reference row known by its name), 2 (no `threads` either: every cell on one thread) and 1
/// (no metric either: every row a time) are still read; each column says which version added
/// it.
package enum ReportSchema {
  /// The value of the `schema` column this tool writes.
  package static let version = "5"

  /// Whether rows of schemas `one` and `other` were measured alike, so that a comparison may
  /// pair them: the same schema, or two of 2 to 5, which added only columns that say what a
  /// row already was (`threads`, the `n/a` status, `row_kind`, `sweep`): a schema 2 row is a
  /// cell on one thread, measured as the later schemas measure it.
  ///
  /// - Complexity: O(1).
  package static func measuresAlike(_ one: String, _ other: String) -> Bool {
    let alike: Set<String> = ["2", "3", "4", "5"]
    return one == other || (alike.contains(one) && alike.contains(other))
  }

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
