import Foundation

/// RFC 4180 CSV: writing with quoting where needed, and a reader that reports where input is
/// wrong.
enum CSV {
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

/// What can be wrong with a report given to `compare` or `history`.
enum ReportError: Error, CustomStringConvertible, Equatable {
  case missing(file: String)
  case unreadable(file: String, reason: String)
  case badHeader(file: String, found: String)
  case malformed(file: String, line: Int, problem: String)
  case empty(file: String)

  var description: String {
    switch self {
    case .missing(let file): return "\(file): no such file"
    case .unreadable(let file, let reason): return "\(file): cannot be read: \(reason)"
    case .badHeader(let file, let found):
      return "\(file):1: the header is not an Observatory report of schema \(ReportSchema.version);"
        + " expected '\(ReportSchema.header)', found '\(found)'"
    case .malformed(let file, let line, let problem): return "\(file):\(line): \(problem)"
    case .empty(let file): return "\(file): the report has a header but no rows"
    }
  }
}

/// Reads and validates a report.
enum ReportReader {
  static func read(_ path: String) throws -> [ReportRow] {
    guard FileManager.default.fileExists(atPath: path) else {
      throw ReportError.missing(file: path)
    }
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw ReportError.unreadable(file: path, reason: error.localizedDescription)
    }
    let records = try CSV.records(text, file: path)
    guard let header = records.first else { throw ReportError.badHeader(file: path, found: "") }
    guard header.fields == ReportSchema.columns else {
      throw ReportError.badHeader(file: path, found: header.fields.joined(separator: ","))
    }
    var rows: [ReportRow] = []
    for record in records.dropFirst() {
      guard record.fields.count == ReportSchema.columns.count else {
        throw ReportError.malformed(
          file: path, line: record.line,
          problem: "expected \(ReportSchema.columns.count) fields, found \(record.fields.count)")
      }
      let row = ReportRow(
        Dictionary(uniqueKeysWithValues: zip(ReportSchema.columns, record.fields)))
      for column in ReportSchema.requiredColumns where row[column].isEmpty {
        throw ReportError.malformed(
          file: path, line: record.line, problem: "column '\(column)' is empty")
      }
      for column in ReportSchema.numericColumns
      where !row[column].isEmpty && row.number(column) == nil {
        throw ReportError.malformed(
          file: path, line: record.line,
          problem: "column '\(column)' should be a number, found '\(row[column])'")
      }
      guard row["schema"] == ReportSchema.version else {
        throw ReportError.malformed(
          file: path, line: record.line,
          problem:
            "schema '\(row["schema"])' is not supported; this tool reads schema \(ReportSchema.version)"
        )
      }
      guard ReportSchema.statuses.contains(row["status"]) else {
        throw ReportError.malformed(
          file: path, line: record.line,
          problem:
            "status '\(row["status"])' is not one of \(ReportSchema.statuses.sorted().joined(separator: ", "))"
        )
      }
      rows.append(row)
    }
    guard !rows.isEmpty else { throw ReportError.empty(file: path) }
    return rows
  }
}
