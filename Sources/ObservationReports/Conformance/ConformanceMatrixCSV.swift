import Foundation

/// The conformance matrix's CSV (`Results/conformance.csv`, what `observatory conformance`
/// writes): one row per rule and backend, RFC 4180 quoting, read and written with the same
/// reader and quoting as a report's CSV.
///
/// A test can pin a backend's outcomes to a committed matrix this way instead of repeating
/// them:
///
/// ```swift
/// let rows = try ConformanceMatrixCSV.rows(fromCSV: String(contentsOf: url, encoding: .utf8))
/// let pinned = rows.filter { $0.backend == "my-backend" }
/// ```
public enum ConformanceMatrixCSV {
  /// The header; the schema is one row per rule and backend.
  public static let header = "suite_version,rule,group,level,title,traits,backend,outcome,details"

  /// The header of matrices written before the `traits` column, which ``rows(fromCSV:)`` still
  /// reads (their rows' ``ConformanceMatrixRow/traits`` are `nil`).
  public static let headerWithoutTraits =
    "suite_version,rule,group,level,title,backend,outcome,details"

  /// The names of the suite's rule traits, in the order the suite declares them
  /// (`RuleTrait` in `ObservationConformance`, whose tests hold the two lists equal): the
  /// `traits` column's vocabulary, and the order it writes them in.
  public static let traitNames = [
    "concurrent", "stochastic", "suiteLevel", "nestsWrites", "expectsTrap", "objectLevel",
    "followsNestedPath", "showsCapability",
  ]

  /// What is wrong with text given to ``rows(fromCSV:)``, and on which line.
  public struct Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
    /// The line the faulty record starts on, from 1.
    public let line: Int
    /// What is wrong.
    public let problem: String

    /// `line N: problem`.
    public var description: String { "line \(line): \(problem)" }
  }

  /// Reads the matrix's CSV, such as the committed `Results/conformance.csv`, into its rows,
  /// in file order.
  ///
  /// - Throws: ``Error`` if the header is not ``header`` (or the older
  ///   ``headerWithoutTraits``), a quoted field is never closed, a record does not have one
  ///   field per column, an outcome is not a ``ConformanceOutcome``, a trait is not one of
  ///   ``traitNames``, or a rule and backend appear together twice.
  /// - Complexity: O(*n*) in the length of `text`.
  public static func rows(fromCSV text: String) throws -> [ConformanceMatrixRow] {
    let records: [(line: Int, fields: [String])]
    do {
      records = try CSV.records(text, file: "")
    } catch ReportError.malformed(_, let line, let problem) {
      throw Error(line: line, problem: problem)
    }
    let found = records.first?.fields ?? []
    let columns = [header, headerWithoutTraits].map {
      $0.split(separator: ",").map(String.init)
    }.first { $0 == found }
    guard let columns else {
      throw Error(
        line: 1, problem: "the header is not '\(header)', found '\(found.joined(separator: ","))'")
    }
    // The fields by column name, whichever header the matrix has.
    let index = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
    var rows: [ConformanceMatrixRow] = []
    var firstLine: [String: Int] = [:]
    for record in records.dropFirst() {
      let fields = record.fields
      guard fields.count == columns.count else {
        throw Error(
          line: record.line, problem: "expected \(columns.count) fields, found \(fields.count)")
      }
      func field(_ name: String) -> String { fields[index[name]!] }
      guard let outcome = ConformanceOutcome(rawValue: field("outcome")) else {
        throw Error(
          line: record.line,
          problem: "'\(field("outcome"))' is not an outcome ("
            + ConformanceOutcome.allCases.map(\.rawValue).joined(separator: ", ") + ")")
      }
      let traits = index["traits"].map { _ in
        Set(field("traits").split(separator: " ").map(String.init))
      }
      if let unknown = traits?.first(where: { !traitNames.contains($0) }) {
        throw Error(
          line: record.line,
          problem: "'\(unknown)' is not a rule trait (" + traitNames.joined(separator: ", ") + ")")
      }
      let cell = field("rule") + " on " + field("backend")
      if let earlier = firstLine[cell] {
        throw Error(line: record.line, problem: "\(cell) appears twice (first on line \(earlier))")
      }
      firstLine[cell] = record.line
      rows.append(
        ConformanceMatrixRow(
          suiteVersion: field("suite_version"), rule: field("rule"), group: field("group"),
          level: field("level"), title: field("title"), traits: traits,
          backend: field("backend"), outcome: outcome, details: field("details")))
    }
    return rows
  }

  /// `rows` as the matrix's CSV: ``rows(fromCSV:)`` reads the text back to the same rows.
  /// Rows read from a matrix without the `traits` column (all of whose
  /// ``ConformanceMatrixRow/traits`` are `nil`) are written without it too; no rows, with it.
  ///
  /// - Complexity: O(*n*) in the length of the text.
  public static func csv(of rows: [ConformanceMatrixRow]) -> String {
    let withTraits = rows.isEmpty || rows.contains { $0.traits != nil }
    var lines = [withTraits ? header : headerWithoutTraits]
    for row in rows {
      var fields = [row.suiteVersion, row.rule, row.group, row.level, row.title]
      if withTraits {
        // Declared traits in their declared order, then any other name as read, sorted.
        let traits = row.traits ?? []
        let declared = traitNames.filter(traits.contains)
        fields.append((declared + traits.subtracting(declared).sorted()).joined(separator: " "))
      }
      fields += [row.backend, row.outcome.rawValue, row.details]
      lines.append(CSV.line(fields))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Whether the file at `path` is a conformance matrix's CSV rather than a report: its first
  /// line is ``header`` or ``headerWithoutTraits``. Only a regular file is opened (a named
  /// pipe would block; the readers say why it cannot be read).
  ///
  /// - Complexity: one read of the header's length.
  package static func isMatrix(atPath path: String) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let longest = max(header.utf8.count, headerWithoutTraits.utf8.count) + 2
    let start = String(decoding: (try? handle.read(upToCount: longest)) ?? Data(), as: UTF8.self)
    let firstLine = start.split(separator: "\n", omittingEmptySubsequences: false).first.map {
      $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
    }
    return firstLine == header || firstLine == headerWithoutTraits
  }
}
