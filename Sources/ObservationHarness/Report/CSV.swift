import Foundation
import ObservationWorkloads

/// RFC 4180 CSV: writing with quoting where needed, and a reader that reports where input is
/// wrong.
public enum CSV {
  static func field(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
      return text
    }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  static func line(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") }

  /// Splits `text` into records of fields.
  ///
  /// - Throws: ``ReportError`` naming the line of an unterminated quote.
  static func records(_ text: String, file: String) throws -> [(line: Int, fields: [String])] {
    var records: [(Int, [String])] = []
    var fields: [String] = []
    var field = ""
    var inQuotes = false
    var line = 1
    var recordLine = 1
    var iterator = Array(text.unicodeScalars).makeIterator()
    var pending: Unicode.Scalar? = nil
    func next() -> Unicode.Scalar? {
      if let scalar = pending {
        pending = nil
        return scalar
      }
      return iterator.next()
    }
    while let scalar = next() {
      if inQuotes {
        if scalar == "\"" {
          if let following = next() {
            if following == "\"" {
              field.unicodeScalars.append("\"")
            } else {
              inQuotes = false
              pending = following
            }
          } else {
            inQuotes = false
          }
        } else {
          if scalar == "\n" { line += 1 }
          field.unicodeScalars.append(scalar)
        }
        continue
      }
      switch scalar {
      case "\"": inQuotes = true
      case ",":
        fields.append(field)
        field = ""
      case "\r": continue
      case "\n":
        fields.append(field)
        records.append((recordLine, fields))
        fields = []
        field = ""
        line += 1
        recordLine = line
      default: field.unicodeScalars.append(scalar)
      }
    }
    if inQuotes {
      throw ReportError.malformed(
        file: file, line: recordLine, problem: "a quoted field is never closed")
    }
    if !field.isEmpty || !fields.isEmpty {
      fields.append(field)
      records.append((recordLine, fields))
    }
    return records
  }
}

/// What can be wrong with a report given to `compare`, `history` or `table`.
public enum ReportError: Error, CustomStringConvertible, Equatable {
  case missing(file: String)
  case unreadable(file: String, reason: String)
  case badHeader(file: String, found: String)
  case malformed(file: String, line: Int, problem: String)
  case empty(file: String)

  /// The problem, with the file and the line.
  public var description: String {
    switch self {
    case .missing(let file): return "\(file): no such file"
    case .unreadable(let file, let reason): return "\(file): cannot be read: \(reason)"
    case .badHeader(let file, let found):
      let shown = found.count > 120 ? String(found.prefix(120)) + "…" : found
      return "\(file):1: the header is not an Observatory report of schema"
        + " \(ReportSchema.readableVersions.joined(separator: " or ")); expected"
        + " '\(ReportSchema.header)' (or schema 1's), found '\(shown)'"
    case .malformed(let file, let line, let problem): return "\(file):\(line): \(problem)"
    case .empty(let file): return "\(file): the report has a header but no rows"
    }
  }
}

/// Reads and validates a report: every field that should hold a number holds a finite decimal
/// one, every count, size and depth a whole number in decimal digits, and no cell appears
/// twice.
public enum ReportReader {
  /// Reads the report at `path`, checking its header and every field.
  ///
  ///  - Throws: ``ReportError`` naming the file, the line and what is accepted.
  ///  - Complexity: O(*b*) for a file of *b* bytes.
  public static func read(_ path: String) throws -> [ReportRow] {
    let text = try readText(path)
    // A first line that is plainly no report's header (no quotes, none of the headers) is
    // refused before the rest of the file, however large, is parsed.
    let lineEnd = text.utf8.firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
    var headerLine = text[..<lineEnd]
    if headerLine.hasSuffix("\r") { headerLine = headerLine.dropLast() }
    let headers = ReportSchema.readableVersions.compactMap {
      ReportSchema.columns(ofVersion: $0)?.joined(separator: ",")
    }
    if !headers.contains(where: { $0.utf8.elementsEqual(headerLine.utf8) }),
      !headerLine.utf8.contains(UInt8(ascii: "\""))
    {
      throw ReportError.badHeader(file: path, found: String(headerLine.prefix(200)))
    }
    let records = try CSV.records(text, file: path)
    guard let header = records.first else { throw ReportError.badHeader(file: path, found: "") }
    guard
      let version = ReportSchema.readableVersions.first(where: {
        ReportSchema.columns(ofVersion: $0) == header.fields
      }), let columns = ReportSchema.columns(ofVersion: version)
    else {
      throw ReportError.badHeader(file: path, found: header.fields.joined(separator: ","))
    }
    var rows: [ReportRow] = []
    var firstLine: [String: Int] = [:]
    for record in records.dropFirst() {
      guard record.fields.count == columns.count else {
        throw ReportError.malformed(
          file: path, line: record.line,
          problem: "expected \(columns.count) fields, found \(record.fields.count)")
      }
      var row = ReportRow(Dictionary(uniqueKeysWithValues: zip(columns, record.fields)))
      if version == "1" { row["metric"] = Metric.time.rawValue }
      try validate(row, version: version, file: path, line: record.line)
      if let earlier = firstLine[row.cellKey] {
        throw ReportError.malformed(
          file: path, line: record.line,
          problem: "cell \(row.cellKey) appears twice (first on line \(earlier)); a report holds"
            + " each cell once")
      }
      firstLine[row.cellKey] = record.line
      rows.append(row)
    }
    guard !rows.isEmpty else { throw ReportError.empty(file: path) }
    return rows
  }

  /// The file's text, refusing anything that is not a readable regular file.
  private static func readText(_ path: String) throws -> String {
    var status = stat()
    guard stat(path, &status) == 0 else {
      let reason = String(cString: strerror(errno))
      if errno == ENOENT { throw ReportError.missing(file: path) }
      throw ReportError.unreadable(file: path, reason: reason)
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw ReportError.unreadable(
        file: path, reason: "not a regular file (a report is a CSV file written by `run`)")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ReportError.unreadable(file: path, reason: String(cString: strerror(errno)))
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ReportError.unreadable(file: path, reason: "not UTF-8 text")
    }
    return text
  }

  private static func validate(_ row: ReportRow, version: String, file: String, line: Int) throws {
    func fail(_ problem: String) -> ReportError {
      ReportError.malformed(file: file, line: line, problem: problem)
    }
    guard row["schema"] == version else {
      throw fail("schema '\(row["schema"])' does not match the header's schema \(version)")
    }
    for column in ReportSchema.requiredColumns where row[column].isEmpty {
      throw fail("column '\(column)' is empty")
    }
    for (column, range) in ReportSchema.integerColumns where !row[column].isEmpty {
      guard integer(row[column], in: range) != nil else {
        throw fail(
          "column '\(column)' should be a whole number from \(range.lowerBound) to"
            + " \(range.upperBound) in decimal digits only (no sign, point, exponent or leading"
            + " zero), found '\(row[column].prefix(40))'")
      }
    }
    for column in ReportSchema.numericColumns
    where !row[column].isEmpty && ReportSchema.integerColumns[column] == nil {
      guard let value = decimal(row[column]) else {
        throw fail(
          "column '\(column)' should be a finite decimal number, found '\(row[column].prefix(40))'")
      }
      if ReportSchema.positiveColumns.contains(column), !(value > 0) {
        throw fail("column '\(column)' should be above zero, found '\(row[column])'")
      }
      if !ReportSchema.positiveColumns.contains(column), value < 0 {
        throw fail("column '\(column)' should not be negative, found '\(row[column])'")
      }
    }
    guard Metric(rawValue: row["metric"]) != nil else {
      throw fail(
        "metric '\(row["metric"])' is not one of \(Metric.allCases.map(\.rawValue).joined(separator: ", "))"
      )
    }
    guard Allocator(rawValue: row["allocator"]) != nil else {
      throw fail(
        "allocator '\(row["allocator"].prefix(40))' is not one of \(Allocator.allCases.map(\.rawValue).joined(separator: ", "))"
      )
    }
    guard Workload(rawValue: row["workload"]) != nil else {
      throw fail(
        "workload '\(row["workload"].prefix(40))' is not one of \(Workload.allCases.map(\.rawValue).joined(separator: ", "))"
      )
    }
    guard WorkloadPattern(rawValue: row["pattern"]) != nil else {
      throw fail(
        "pattern '\(row["pattern"].prefix(40))' is not one of \(WorkloadPattern.allCases.map(\.rawValue).joined(separator: ", "))"
      )
    }
    if row["status"] == "ok" && !row["note"].isEmpty {
      throw fail("status 'ok' takes no note; found '\(row["note"].prefix(40))'")
    }
    guard ReportSchema.statuses.contains(row["status"]) else {
      throw fail(
        "status '\(row["status"])' is not one of \(ReportSchema.statuses.sorted().joined(separator: ", "))"
      )
    }
    if row["status"].hasPrefix("ok") && row.cost == nil {
      throw fail("status '\(row["status"])' but column '\(row.costColumn)' is empty")
    }
  }

  /// A whole number in `range` written as `run` writes one: decimal digits, no sign, no
  /// leading zero; `nil` for anything else.
  static func integer(_ text: String, in range: ClosedRange<Int>) -> Int? {
    guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ (48...57).contains($0) }),
      text == "0" || !text.hasPrefix("0"), let value = Int(text), range.contains(value)
    else { return nil }
    return value
  }

  /// A finite number written in decimal (`12`, `0.5`, `1e3`); `nil` for anything else,
  /// including `nan`, `inf`, hexadecimal and numbers too large for a `Double`.
  static func decimal(_ text: String) -> Double? {
    guard !text.isEmpty,
      text.unicodeScalars.allSatisfy({ "0123456789.eE+-".unicodeScalars.contains($0) }),
      let value = Double(text), value.isFinite
    else { return nil }
    return value
  }
}
