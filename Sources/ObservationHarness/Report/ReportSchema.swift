/// The CSV report's columns, in order. Version 2, documented in `Results/README.md`; version 1
/// (no metric: every row a time) is still read.
public enum ReportSchema {
  /// The value of the `schema` column this tool writes.
  public static let version = "2"

  /// The versions this tool reads.
  static let readableVersions = ["1", "2"]

  static let columns = [
    "schema", "run_id", "commit", "date", "host", "cpu", "cores", "os", "swift", "build",
    "allocator", "backend", "workload", "pattern", "n", "depth", "unit", "metric", "repetitions",
    "ns_min", "ns_median", "ns_p90", "ns_max", "instructions_per_op", "instructions_spread",
    "d1_misses_per_op", "ll_misses_per_op", "ratio_to_limit", "allocs_per_op", "bytes_per_op",
    "retained_bytes_per_observer", "status", "note",
  ]

  /// Schema 1's columns: schema 2's without the metric and the counts.
  static let version1Columns = columns.filter { !addedInVersion2.contains($0) }

  /// The columns schema 2 added; a schema 1 row reads them as a time row's: metric `time`, no
  /// counts.
  static let addedInVersion2: Set<String> = [
    "metric", "instructions_per_op", "instructions_spread", "d1_misses_per_op",
    "ll_misses_per_op",
  ]

  /// The columns of `version`'s header.
  static func columns(ofVersion version: String) -> [String]? {
    switch version {
    case "1": return version1Columns
    case "2": return columns
    default: return nil
    }
  }

  static var header: String { columns.joined(separator: ",") }

  /// The report's text in the schema `version` (this tool's by default): the header, then
  /// one line per row.
  public static func csv(_ rows: [ReportRow], version: String = version) -> String {
    let columns = columns(ofVersion: version) ?? columns
    return
      ([columns.joined(separator: ",")] + rows.map { row in CSV.line(columns.map { row[$0] }) })
      .joined(separator: "\n") + "\n"
  }

  /// Columns that must hold a finite number when present.
  static let numericColumns: Set<String> = [
    "cores", "n", "depth", "repetitions", "ns_min", "ns_median", "ns_p90", "ns_max",
    "instructions_per_op", "instructions_spread", "d1_misses_per_op", "ll_misses_per_op",
    "ratio_to_limit", "allocs_per_op", "bytes_per_op", "retained_bytes_per_observer",
  ]

  /// Columns that must hold a whole number in the range when present, written in decimal
  /// digits only: `n` and `depth` name a cell, and `+16`, `016` or `1.6e1` would name another
  /// one, slipping past the check that no cell appears twice.
  static let integerColumns: [String: ClosedRange<Int>] = [
    "cores": 1...largestInteger, "n": 1...largestInteger, "depth": 0...largestInteger,
    "repetitions": 1...largestInteger,
  ]

  /// The largest whole number a report's integer columns hold.
  static let largestInteger = 1_000_000_000_000_000

  /// Columns that must hold a number above zero when present: a cost of zero or less is not a
  /// measurement.
  static let positiveColumns: Set<String> = [
    "ns_min", "ns_median", "ns_p90", "ns_max", "instructions_per_op",
  ]

  /// Columns that must never be empty.
  static let requiredColumns: Set<String> = [
    "schema", "run_id", "commit", "date", "allocator", "backend", "workload", "pattern", "n",
    "unit", "metric", "status",
  ]

  /// The statuses a row can have.
  static let statuses: Set<String> = ["ok", "ok-no-memory", "invalid", "capped", "failed"]
}

/// One row of a report: a map from column to text, in schema order.
public struct ReportRow: Equatable {
  var fields: [String: String]

  init(_ fields: [String: String] = [:]) { self.fields = fields }

  /// The value of `column`, or `""` when the row has none.
  public subscript(_ column: String) -> String {
    get { fields[column] ?? "" }
    set { fields[column] = newValue }
  }

  func number(_ column: String) -> Double? { Double(self[column]) }

  /// The cell this row measures, for matching rows of two reports.
  public var cellKey: String {
    ["allocator", "backend", "workload", "pattern", "n", "depth"].map { self[$0] }
      .joined(separator: "/")
  }

  /// The row's metric (`time` for a schema 1 row).
  public var metric: Metric { Metric(rawValue: self["metric"]) ?? .time }

  /// The column that holds the row's cost: `ns_median`, or `instructions_per_op`.
  var costColumn: String { metric == .instructions ? "instructions_per_op" : "ns_median" }

  /// The row's cost per operation in its metric, if it was measured.
  public var cost: Double? { number(costColumn) }

  /// The cost with its unit, as tables print it.
  public var costText: String {
    self[costColumn] + (metric == .instructions ? " instr" : " ns")
  }
}
