import Foundation

/// A report: every cell's result from one sweep, in sweep order, or as read from a file.
///
/// ```swift
/// let report = try Report.read("Results/2026-11-25_f4e3f81e7379_vm.csv")
/// let regressions = report.results.filter { !$0.status.isMeasured }
/// print(try report.json())
/// ```
public struct Report: Equatable, Sendable {
  /// The results, one per cell.
  public var results: [CellResult]

  /// A report of `results`.
  public init(_ results: [CellResult]) { self.results = results }

  /// Reads the CSV report at `path`, checking every field against what its column accepts.
  ///
  /// - Throws: ``ReportError`` naming the file, the line and what is accepted.
  /// - Complexity: O(*b*) for a file of *b* bytes.
  public static func read(_ path: String) throws -> Report {
    Report(try ReportReader.read(path))
  }

  /// Reads a report from its CSV text, as ``read(_:)`` reads a file; `name` names the text
  /// in errors (a file name, or `standard input`).
  ///
  /// - Throws: ``ReportError`` naming `name`, the line and what is accepted.
  /// - Complexity: O(*b*) for *b* bytes of text.
  public static func read(csv text: String, name: String) throws -> Report {
    Report(try ReportReader.read(csv: text, file: name))
  }

  /// The report as CSV text: the header, then one line per result, in the schema its results
  /// were written with if they share one (a report read from a file is written back as it
  /// was), else this tool's.
  ///
  /// - Complexity: O(*r*) for *r* results.
  public var csv: String {
    let schemas = Set(results.map(\.schema))
    let version = schemas.count == 1 ? schemas.first! : ReportSchema.version
    return ReportSchema.csv(results, version: version)
  }

  /// The report as JSON text: `{"schema": "2", "results": [...]}`, one object per result with
  /// the CSV's columns as keys.
  ///
  /// - Complexity: O(*r*) for *r* results.
  public func json() throws -> String { try JSONText.encode(self) }
}

extension Report: Codable {
  private enum CodingKeys: String, CodingKey { case schema, results }

  /// Writes `{"schema": "2", "results": [...]}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(ReportSchema.version, forKey: .schema)
    try container.encode(results, forKey: .results)
  }

  /// Reads what ``encode(to:)`` writes.
  ///
  /// - Throws: `DecodingError` for a missing key or a malformed result.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    results = try container.decode([CellResult].self, forKey: .results)
  }
}
