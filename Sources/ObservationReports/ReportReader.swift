import Foundation
import ObservationWorkloads

/// Reads and validates a report, straight into results: every field holds what its column
/// (``ReportColumn``) accepts, the columns agree with one another, and no cell appears twice.
package enum ReportReader {
  /// Reads the report at `path`, checking its header and every field.
  ///
  ///  - Throws: ``ReportError`` naming the file, the line and what is accepted.
  ///  - Complexity: O(*b*) for a file of *b* bytes.
  package static func read(_ path: String) throws -> [CellResult] {
    try read(csv: try readText(path), file: path)
  }

  /// Reads a report's text, as ``read(_:)`` reads a file's; `path` names it in errors.
  ///
  ///  - Throws: ``ReportError`` naming `path`, the line and what is accepted.
  ///  - Complexity: O(*b*) for *b* bytes of text.
  package static func read(csv text: String, file path: String) throws -> [CellResult] {
    // A first line that is plainly no report's header (no quotes, none of the headers) is
    // refused before the rest of the file, however large, is parsed.
    let lineEnd = text.utf8.firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
    var headerLine = text[..<lineEnd]
    if headerLine.hasSuffix("\r") { headerLine = headerLine.dropLast() }
    let headers = ReportColumn.readableVersions.map { ReportColumn.header(ofVersion: $0) }
    if !headers.contains(where: { $0.utf8.elementsEqual(headerLine.utf8) }),
      !headerLine.utf8.contains(UInt8(ascii: "\""))
    {
      throw ReportError.badHeader(file: path, found: String(headerLine.prefix(200)))
    }
    let records = try CSV.records(text, file: path)
    guard let header = records.first else { throw ReportError.badHeader(file: path, found: "") }
    guard
      let version = ReportColumn.readableVersions.first(where: {
        ReportColumn.columns(ofVersion: $0)?.map(\.name) == header.fields
      }), let columns = ReportColumn.columns(ofVersion: version)
    else {
      throw ReportError.badHeader(file: path, found: header.fields.joined(separator: ","))
    }
    var results: [CellResult] = []
    var firstLine: [Cell: Int] = [:]
    for record in records.dropFirst() {
      guard record.fields.count == columns.count else {
        throw ReportError.malformed(
          file: path, line: record.line,
          problem: "expected \(columns.count) fields, found \(record.fields.count)")
      }
      let schema = record.fields[0]
      guard schema == version else {
        throw ReportError.malformed(
          file: path, line: record.line,
          problem: "schema '\(schema.prefix(40))' does not match the header's schema \(version)")
      }
      let result: CellResult
      do {
        result = try ReportColumn.decode(record.fields, columns: columns)
      } catch {
        throw ReportError.malformed(file: path, line: record.line, problem: error.description)
      }
      if let earlier = firstLine[result.cell] {
        throw ReportError.malformed(
          file: path, line: record.line,
          problem: "cell \(result.cell.key) appears twice (first on line \(earlier)); a report"
            + " holds each cell once")
      }
      firstLine[result.cell] = record.line
      results.append(result)
    }
    guard !results.isEmpty else { throw ReportError.empty(file: path) }
    return results
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
}
