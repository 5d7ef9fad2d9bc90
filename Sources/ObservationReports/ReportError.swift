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
        + " \(ReportColumn.readableVersions.joined(separator: " or ")); expected"
        + " '\(ReportSchema.header)' (or schema 1's), found '\(shown)'"
    case .malformed(let file, let line, let problem): return "\(file):\(line): \(problem)"
    case .empty(let file): return "\(file): the report has a header but no rows"
    }
  }
}
