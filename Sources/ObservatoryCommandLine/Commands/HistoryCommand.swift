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
      both, the times are shown unless --metric says otherwise. Reports of several machines \
      (host, CPU, cores) give one trend per machine: a change is never computed from one \
      machine to another.
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
      if ConformanceMatrixCSV.isMatrix(atPath: path) {
        notes.append("skipped \(path): the conformance matrix, not a report of costs")
      } else {
        paths.append(path)
      }
    }
    if paths.isEmpty, let matrix = reports.first {
      throw ValidationError(
        "\(matrix): a conformance matrix (header '\(ConformanceMatrixCSV.header)'), not a report"
          + " of costs; history reads the reports run writes (header 'schema,run_id,...')")
    }
    var reportsRead: [(path: String, report: Report)] = []
    for path in paths {
      do { reportsRead.append((path, try Report.read(path))) } catch let error as ReportError {
        throw ValidationError(error.description)
      }
    }
    // Main job followed, each run once, grouped by machine.
    let series = ReportSeries(reportsRead, isNarrowSweepName: DefaultReportName.isNarrowSweep)
    notes += series.notes
    var matches = series.entries.flatMap { entry in
      entry.report.results.filter {
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
    let machines = Set(matches.map { Machine($0.environment) })
    if machines.count > 1 {
      notes.append(
        "the rows come from \(machines.count) machines: one trend each, and no change is"
          + " computed from one machine to another")
    }
    return (matches, notes)
  }

  /// One trend per machine (``Machine``: host, processor, cores), machines ordered by name:
  /// each machine's rows oldest first, with the change from its previous row of the same
  /// allocator. A change is never computed across machines. With several machines, each
  /// trend is headed by its machine.
  ///
  /// - Complexity: O(*r* log *r*) for *r* rows.
  static func table(_ rows: [CellResult]) -> String {
    let machines = Dictionary(grouping: rows) { Machine($0.environment) }
    guard machines.count > 1 else { return trend(rows) }
    return machines.keys.sorted().map { machine in
      "\(machine):\n" + trend(machines[machine]!)
    }.joined(separator: "\n")
  }

  /// The rows sorted oldest first, with the change from the previous row of the same allocator;
  /// a row of another build than that row's (a statically linked Swift runtime, say) or of
  /// another toolchain names them instead, since they alone move the cost.
  static func trend(_ rows: [CellResult]) -> String {
    let sorted = rows.sorted {
      ($0.environment.date, $0.environment.runID) < ($1.environment.date, $1.environment.runID)
    }
    var previous: [String: (cost: Double, build: String, swift: String)] = [:]
    var lines = [
      ["date", "commit", "allocator", "cost", "p90", "ratio to limit", "status", "change"]
    ]
    for row in sorted {
      var change = "-"
      let allocator = row.cell.allocator.rawValue
      let (build, swift) = (row.environment.build, row.environment.swift)
      if let median = row.cost {
        if let before = previous[allocator], before.cost > 0 {
          if before.build != build {
            change = "\(build) build"
          } else if before.swift != swift {
            change = "Swift \(swift)"
          } else {
            change = readableChange(ofRatio: median / before.cost)
          }
        }
        previous[allocator] = (median, build, swift)
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
