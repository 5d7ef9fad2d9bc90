import Foundation
import ObservationWorkloads

/// Reports read as one history: grouped by the machine that measured them, oldest first,
/// following the main job, each run once.
///
/// Every reading of several reports goes through it: `history` shows one cell's trend per
/// machine, the trend page draws a chart per machine, and neither ever joins two machines into
/// one line, as ``Comparison`` refuses to compare timed reports of two machines.
///
/// - A report of a quick or narrowed sweep (as its `sweep` column says; for a report older
///   than schema 5, as its default file name `..._quick.csv` or `..._partial.csv` says) is
///   left out when a report of the main job is given too: `Results/*.csv` follows the main
///   job. Named without one, such reports are read.
/// - A run given twice (the same file, or a copy under another name) is one point: a row is
///   the same when its run, date, commit, host, metric and cell are; a later report's rows read
///   already are left out, and the report too when nothing is left.
///
/// What is left out is said in ``notes``, one sentence each.
///
/// ```swift
/// let paths = ["Results/2026-11-25_f4e3f81e7379_vm.csv", "Results/2026-11-28_be36b731ab40_vm.csv"]
/// let series = ReportSeries(try paths.map { ($0, try Report.read($0)) })
/// for (machine, entries) in series.byMachine {
///   print(machine, entries.map(\.path))
/// }
/// ```
public struct ReportSeries: Sendable {
  /// One report of the series.
  public struct Entry: Sendable {
    /// The report's file, as given.
    public var path: String
    /// The report's rows, without those an earlier report of the series holds already.
    public var report: Report
    /// The machine that measured it.
    public var machine: Machine
    /// When its run started (ISO 8601, UTC), as its first row says.
    public var date: String
    /// Its place among the reports as given.
    public var position: Int
  }

  /// The reports kept, oldest first (by date, then as given).
  public private(set) var entries: [Entry]
  /// What was left out, and why, one sentence each.
  public private(set) var notes: [String]

  /// The series of `reports`, each a path and the report read from it, in the order given.
  ///
  /// - Parameters:
  ///   - reports: the reports, each with the path it was read from.
  ///   - isNarrowSweepName: whether a file name is one the tool gives the report of a quick
  ///     or narrowed sweep; asked only for a report that does not say which sweep wrote it.
  /// - Complexity: O(*r* log *r*) for *r* rows of all reports.
  public init(
    _ reports: [(path: String, report: Report)],
    isNarrowSweepName: (String) -> Bool = { _ in false }
  ) {
    var notes: [String] = []
    var kept: [(path: String, report: Report)] = []
    for (path, report) in reports {
      if report.results.isEmpty {
        notes.append("skipped \(path): it holds no row")
      } else {
        kept.append((path, report))
      }
    }
    func isMainJob(_ path: String, _ report: Report) -> Bool {
      if let sweep = report.results.lazy.compactMap(\.environment.sweep).first {
        return sweep == .default
      }
      return !isNarrowSweepName(path)
    }
    if kept.contains(where: { isMainJob($0.path, $0.report) }) {
      for (path, report) in kept where !isMainJob(path, report) {
        let kind = report.results.lazy.compactMap(\.environment.sweep).first.map {
          "a \($0.rawValue)"
        }
        notes.append(
          "skipped \(path): \(kind ?? "a quick or partial") sweep's report, not the main job's"
            + " (name it without the main job's reports to follow it)")
      }
      kept.removeAll { !isMainJob($0.path, $0.report) }
    }
    var fileOfRow: [String: String] = [:]
    var entries: [Entry] = []
    for (position, (path, report)) in kept.enumerated() {
      var results = report.results
      let repeated = results.filter { fileOfRow[Self.identity(of: $0)] != nil }
      if let first = repeated.first, let earlier = fileOfRow[Self.identity(of: first)] {
        notes.append(
          repeated.count == results.count
            ? "skipped \(path): the same run as \(earlier), read once"
            : "\(path): left out \(repeated.count) row(s) read already from \(earlier)")
        results.removeAll { fileOfRow[Self.identity(of: $0)] != nil }
      }
      for result in results { fileOfRow[Self.identity(of: result)] = path }
      guard let first = results.first else { continue }
      entries.append(
        Entry(
          path: path, report: Report(results), machine: Machine(first.environment),
          date: first.environment.date, position: position))
    }
    self.entries = entries.sorted { ($0.date, $0.position) < ($1.date, $1.position) }
    self.notes = notes
  }

  /// What makes two rows one: run, date, commit, host, metric and cell.
  private static func identity(of result: CellResult) -> String {
    let environment = result.environment
    return [
      environment.runID, environment.date, environment.commit, environment.host,
      result.metric.rawValue, result.cell.key,
    ].joined(separator: "|")
  }

  /// The machines of the series, ordered by host, processor and cores.
  ///
  /// - Complexity: O(*e* log *e*) for *e* entries.
  public var machines: [Machine] { Set(entries.map(\.machine)).sorted() }

  /// The entries of each machine, oldest first; machines ordered by host, processor and cores.
  ///
  /// - Complexity: O(*e* log *e*) for *e* entries.
  public var byMachine: [(machine: Machine, entries: [Entry])] {
    machines.map { machine in (machine, entries.filter { $0.machine == machine }) }
  }

  /// The machine's speed in `results`, as its reference rows measure it: the geometric mean of
  /// their measured `notify` costs at `n`, leaving out the asynchronous floor
  /// (`reference-async-tasks`, which measures the concurrency runtime too); `nil` if none has
  /// one. A trend drawn relative to
  /// each report's machine divides every cost by it.
  ///
  /// - Complexity: O(*r*) for *r* results.
  public static func machineSpeed(of results: [CellResult], n: Int) -> Double? {
    let costs = results.filter {
      $0.isReference && $0.cell.workload == .notify && $0.cell.n == n && $0.status.isMeasured
        && ReferenceRow(rawValue: $0.cell.backend)?.measuresMachineSpeed != false
    }.compactMap(\.cost).filter { $0 > 0 }
    guard !costs.isEmpty else { return nil }
    return exp(costs.map(log).reduce(0, +) / Double(costs.count))
  }
}
