import ArgumentParser
import Foundation

/// `observatory history Results/*.csv --backend B --workload W --n N`: one cell across commits.
struct HistoryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history",
    abstract: "Show one cell's trend across reports, oldest first.")

  @Argument(help: "Reports (CSV), e.g. Results/*.csv.") var reports: [String]
  @Option(name: .long) var backend: String
  @Option(name: .long) var workload: String
  @Option(name: .long) var n: Int
  @Option(name: .long, help: "Pattern (for cancel: fifo, lifo, random).") var pattern: String = "-"
  @Option(name: .long, help: "Allocator; default: every allocator found.") var allocator: String?
  @Option(name: .long, help: "Path depth for nested (default 3); other workloads have depth 0.")
  var depth: Int?
  @Option(
    name: .long,
    help:
      "time or instructions: the rows to show when the reports hold both (default: the one found).")
  var metric: Metric?

  /// The depth to match: as given, or the sweep's default for the workload.
  var plannedDepth: Int { depth ?? (workload == "nested" ? 3 : 0) }

  func validate() throws {
    if reports.isEmpty { throw ValidationError("give at least one report, e.g. Results/*.csv") }
  }

  func run() throws {
    var matches: [ReportRow] = []
    var read = 0
    for path in reports {
      // `Results/*.csv` also matches the conformance matrix, which is no report of costs.
      if Self.isConformanceMatrix(path) {
        StandardOutput.writeError(
          "observatory: skipped \(path): the conformance matrix, not a report of costs\n")
        continue
      }
      read += 1
      let rows: [ReportRow]
      do { rows = try ReportReader.read(path) } catch let error as ReportError {
        throw ValidationError(error.description)
      }
      matches += rows.filter {
        $0["backend"] == backend && $0["workload"] == workload && $0["n"] == String(n)
          && $0["pattern"] == pattern && $0["depth"] == String(plannedDepth)
          && (allocator == nil || $0["allocator"] == allocator)
          && (metric == nil || $0.metric == metric)
      }
    }
    guard !matches.isEmpty else {
      throw ValidationError(
        "no row for backend '\(backend)', workload '\(workload)', pattern '\(pattern)', n \(n),"
          + " depth \(plannedDepth)" + (allocator.map { ", allocator '\($0)'" } ?? "")
          + (metric.map { ", metric \($0.rawValue)" } ?? "") + " in \(read) report(s)")
    }
    let metrics = Set(matches.map(\.metric))
    guard metrics.count == 1 else {
      throw ValidationError(
        "the matching rows mix metrics (\(metrics.map(\.rawValue).sorted().joined(separator: ", ")));"
          + " pass --metric time or --metric instructions")
    }
    try StandardOutput.write(Self.table(matches))
  }

  /// Whether the file at `path` starts with the conformance matrix's header.
  static func isConformanceMatrix(_ path: String) -> Bool {
    // Only a regular file is opened here: a named pipe would block (the reader says why not).
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let prefix = "suite_version,rule,"
    let start = (try? handle.read(upToCount: prefix.utf8.count)) ?? Data()
    return start == Data(prefix.utf8)
  }

  /// The rows sorted oldest first, with the change from the previous row of the same allocator.
  static func table(_ rows: [ReportRow]) -> String {
    let sorted = rows.sorted { ($0["date"], $0["run_id"]) < ($1["date"], $1["run_id"]) }
    var previous: [String: Double] = [:]
    var lines = [
      ["date", "commit", "allocator", "cost", "p90 ns", "ratio to limit", "status", "change"]
    ]
    for row in sorted {
      var change = "-"
      if let median = row.cost {
        if let before = previous[row["allocator"]], before > 0 {
          change = String(format: "%+.1f%%", (median / before - 1) * 100)
        }
        previous[row["allocator"]] = median
      }
      lines.append([
        row["date"], row["commit"], row["allocator"], row.cost == nil ? "" : row.costText,
        row["ns_p90"],
        row["ratio_to_limit"], row["status"], change,
      ])
    }
    return TextTable.render(lines)
  }
}
