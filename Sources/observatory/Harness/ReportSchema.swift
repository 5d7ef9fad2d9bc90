/// The CSV report's columns, in order. Version 1; documented in `Results/README.md`.
enum ReportSchema {
  /// The value of the `schema` column.
  static let version = "1"

  static let columns = [
    "schema", "run_id", "commit", "date", "host", "cpu", "cores", "os", "swift", "build",
    "allocator", "backend", "workload", "pattern", "n", "depth", "unit", "repetitions", "ns_min",
    "ns_median", "ns_p90", "ns_max", "ratio_to_limit", "allocs_per_op", "bytes_per_op",
    "retained_bytes_per_observer", "status", "note",
  ]

  static var header: String { columns.joined(separator: ",") }

  /// Columns that must hold a number when present.
  static let numericColumns: Set<String> = [
    "cores", "n", "depth", "repetitions", "ns_min", "ns_median", "ns_p90", "ns_max",
    "ratio_to_limit", "allocs_per_op", "bytes_per_op", "retained_bytes_per_observer",
  ]

  /// Columns that must never be empty.
  static let requiredColumns: Set<String> = [
    "schema", "run_id", "commit", "date", "allocator", "backend", "workload", "pattern", "n",
    "unit", "status",
  ]

  /// The statuses a row can have.
  static let statuses: Set<String> = ["ok", "ok-no-memory", "invalid", "capped", "failed"]
}

/// One row of a report: a map from column to text, in schema order.
struct ReportRow: Equatable {
  var fields: [String: String]

  init(_ fields: [String: String] = [:]) { self.fields = fields }

  subscript(_ column: String) -> String {
    get { fields[column] ?? "" }
    set { fields[column] = newValue }
  }

  func number(_ column: String) -> Double? { Double(self[column]) }

  /// The cell this row measures, for matching rows of two reports.
  var cellKey: String {
    ["allocator", "backend", "workload", "pattern", "n", "depth"].map { self[$0] }
      .joined(separator: "/")
  }
}
