import ArgumentParser
import Foundation
import ObservationConformance
import ObservationHarness
import ObservationReports
import ObservationWorkloads

/// `observatory history Results/*.csv --backend B --workload W --n N`: one cell across commits.
struct HistoryCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "history",
    abstract: "Show one cell's trend across reports, oldest first.",
    discussion: """
      Follows the main job: reports of a quick or narrowed sweep (as their sweep column says; \
      for a report older than schema 5, as its default name ..._quick.csv or ..._partial.csv \
      says) are skipped, saying so, when a report of the main job is given too, so that Results/*.csv follows the main job; named \
      without one, they are read. Times and instruction counts are never one trend: with \
      both, the times are shown unless --metric says otherwise.
      """)

  @Argument(help: "Reports (CSV), e.g. Results/*.csv.") var reports: [String]
  @Option(name: .long) var backend: String
  @Option(name: .long) var workload: Workload
  @Option(name: .long) var n: Int
  @Option(name: .long, help: "Pattern (for cancel: fifo, lifo, random; for nested: leaf, …).")
  var pattern: WorkloadPattern = .single
  @Option(name: .long, help: "Allocator; default: every allocator found.") var allocator: Allocator?
  @Option(
    name: .long,
    help: """
      Path depth for nested (default \(SweepDefaults.nestedDepth)); \
      other workloads have depth 0.
      """)
  var depth: Int?
  @Option(
    name: .long,
    help: "Threads, for a contended workload; other workloads run on one thread.")
  var threads = 1
  @Option(
    name: .long,
    help:
      "time or instructions: the rows to show (default: the one found; time if both are).")
  var metric: Metric?

  /// The depth to match: as given, or the sweep's default for the workload.
  var plannedDepth: Int { depth ?? (workload == .nested ? SweepDefaults.nestedDepth : 0) }

  func validate() throws {
    if reports.isEmpty { throw ValidationError("give at least one report, e.g. Results/*.csv") }
    if !(1...ReportColumn.maximumThreads).contains(threads) {
      throw ValidationError(
        "--threads must be a whole number from 1 to \(ReportColumn.maximumThreads), got \(threads)")
    }
  }

  func run(with tool: Tool) throws {
    let (rows, notes) = try matchingRows()
    for note in notes {
      StandardOutput.writeError(BoundedLine.shortened("\(tool.name): \(note)") + "\n")
    }
    try StandardOutput.write(Self.table(rows))
  }

  /// The rows of the cell, all of one metric, and what was left out, one note a line.
  ///
  /// Reports of a quick or narrowed sweep (as their `sweep` column says, or for an older
  /// report its default name: `_quick`, `_partial`) are left out when a report of the main job
  /// is given too, so that `history Results/*.csv` follows the main job; named without one,
  /// they are read. When the rows hold both metrics, `time` is shown unless `--metric` says
  /// otherwise.
  ///
  /// - Throws: a one-line `ValidationError` when a report cannot be read or no row matches.
  func matchingRows() throws -> (rows: [CellResult], notes: [String]) {
    var notes: [String] = []
    var paths: [String] = []
    for path in reports {
      // `Results/*.csv` also matches the conformance matrix, which is no report of costs.
      if ConformanceMatrixDocument.isMatrix(atPath: path) {
        notes.append("skipped \(path): the conformance matrix, not a report of costs")
      } else {
        paths.append(path)
      }
    }
    if paths.isEmpty, let matrix = reports.first {
      throw ValidationError(
        "\(matrix): a conformance matrix (header '\(ConformanceMatrix.csvHeader)'), not a report"
          + " of costs; history reads the reports run writes (header 'schema,run_id,...')")
    }
    var reportsRead: [(path: String, results: [CellResult])] = []
    for path in paths {
      do { reportsRead.append((path, try Report.read(path).results)) } catch let error
        as ReportError
      {
        throw ValidationError(error.description)
      }
    }
    if reportsRead.contains(where: { Self.isMainJob($0.path, $0.results) }) {
      for (path, results) in reportsRead where !Self.isMainJob(path, results) {
        let kind = results.lazy.compactMap(\.environment.sweep).first.map { "a \($0.rawValue)" }
        notes.append(
          "skipped \(path): \(kind ?? "a quick or partial") sweep's report, not the main job's"
            + " (name it without the main job's reports to follow it)")
      }
      reportsRead.removeAll { !Self.isMainJob($0.path, $0.results) }
    }
    var matches: [CellResult] = []
    // A run is one point of the trend however often it is given: the same file twice, or a
    // copy under another name. A row is the same when its run, date, commit, metric and cell
    // are.
    var fileOfRow: [String: String] = [:]
    for (path, read) in reportsRead {
      var results = read
      func identity(_ result: CellResult) -> String {
        let environment = result.environment
        return [
          environment.runID, environment.date, environment.commit, result.metric.rawValue,
          result.cell.key,
        ].joined(separator: "|")
      }
      let repeated = results.filter { fileOfRow[identity($0)] != nil }
      if let first = repeated.first, let earlier = fileOfRow[identity(first)] {
        notes.append(
          repeated.count == results.count
            ? "skipped \(path): the same run as \(earlier), read once"
            : "\(path): left out \(repeated.count) row(s) read already from \(earlier)")
        results.removeAll { fileOfRow[identity($0)] != nil }
      }
      for result in results { fileOfRow[identity(result)] = path }
      matches += results.filter {
        let cell = $0.cell
        return cell.backend == backend && cell.workload == workload && cell.n == n
          && cell.pattern == pattern && cell.depth == plannedDepth && cell.threads == threads
          && (allocator == nil || cell.allocator == allocator)
          && (metric == nil || $0.metric == metric)
      }
    }
    guard !matches.isEmpty else {
      throw ValidationError(
        "no row for backend '\(backend)', workload '\(workload.rawValue)', pattern"
          + " '\(pattern.rawValue)', n \(n), depth \(plannedDepth)"
          + (threads != 1 ? ", threads \(threads)" : "")
          + (allocator.map { ", allocator '\($0.rawValue)'" } ?? "")
          + (metric.map { ", metric \($0.rawValue)" } ?? "")
          + " in \(reportsRead.count) report(s)")
    }
    // Times and counts are not one trend: with both, the times, and a note about the counts.
    if Set(matches.map(\.metric)).count > 1 {
      let counted = matches.filter { $0.metric == .instructions }.count
      notes.append(
        "left out \(counted) instruction-count row(s); pass --metric instructions to follow them")
      matches.removeAll { $0.metric == .instructions }
    }
    return (matches, notes)
  }

  /// Whether the report at `path`, whose rows are `results`, is the main job's: written by the
  /// default sweep, as its `sweep` column says; a report of schema 4 or older does not say,
  /// and is the main job's unless its default name says otherwise (`_quick`, `_partial`).
  ///
  /// - Complexity: O(*r*) for *r* rows.
  static func isMainJob(_ path: String, _ results: [CellResult]) -> Bool {
    if let sweep = results.lazy.compactMap(\.environment.sweep).first {
      return sweep == .default
    }
    return !DefaultReportName.isNarrowSweep(path)
  }

  /// The rows sorted oldest first, with the change from the previous row of the same allocator;
  /// a row of another build than that row's (a statically linked Swift runtime, say) names its
  /// build instead, since the build alone moves the cost.
  static func table(_ rows: [CellResult]) -> String {
    let sorted = rows.sorted {
      ($0.environment.date, $0.environment.runID) < ($1.environment.date, $1.environment.runID)
    }
    var previous: [String: (cost: Double, build: String)] = [:]
    var lines = [
      ["date", "commit", "allocator", "cost", "p90", "ratio to limit", "status", "change"]
    ]
    for row in sorted {
      var change = "-"
      let allocator = row.cell.allocator.rawValue
      let build = row.environment.build
      if let median = row.cost {
        if let before = previous[allocator], before.cost > 0 {
          change =
            before.build == build
            ? readableChange(ofRatio: median / before.cost)
            : "\(build) build"
        }
        previous[allocator] = (median, build)
      }
      lines.append([
        row.environment.date, row.environment.commit, allocator, row.costText,
        readableNanoseconds(row.nanoseconds?.p90), readableCount(row.ratioToLimit), row.status.name,
        change,
      ])
    }
    return TextTable.render(lines)
  }
}
