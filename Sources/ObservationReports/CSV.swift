import Foundation
import ObservationWorkloads

/// RFC 4180 CSV: writing with quoting where needed, and a reader that reports where input is
/// wrong; reports and the conformance matrix (``ConformanceMatrixCSV``) are read and written
/// with it.
package enum CSV {
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
