import Foundation
import ObservationReports
import ObservationWorkloads

/// What `observatory run` says on standard error when its sweep ends: how many cells were
/// measured, capped, invalid or failed, the wall time, where the report went, the backends
/// with the most capped cells, and the commands to try next with the report's path filled in.
///
/// ```swift
/// let summary = SweepSummary(
///   report: report, wallSeconds: 723, destination: .csv("Results/2026-11-24_abc_vm.csv"),
///   baseline: "Results/2026-11-23_e4202d2fd5eb_vm.csv")
/// print(summary.text)  // or summary.line, with --quiet
/// ```
package struct SweepSummary {
  /// Where the report went.
  package enum Destination: Equatable, Sendable {
    /// A CSV report at this path, which `table`, `report` and `compare` read.
    case csv(String)
    /// JSON at this path: the same results, for other tools.
    case json(String)
    /// Standard output.
    case standardOutput
  }

  /// The sweep's results, with their statuses.
  package var report: Report
  /// The sweep's wall time, in seconds.
  package var wallSeconds: Double
  /// Where the report went.
  package var destination: Destination
  /// An earlier report that `compare` accepts as this one's base, if there is one (see
  /// ``DefaultReportName/latestComparable(to:results:)``).
  package var baseline: String?
  /// The name the next commands start with: the tool's executable.
  package var tool: String
  /// What the summary's first line starts with: the tool's name.
  package var toolName: String
  /// The sizes `table` shows unless `--sizes` says otherwise, those of them the report has; a
  /// report with none of them gets a `--sizes` in the suggested `table` command.
  package var tableSizes: [Int]

  /// The summary of a sweep that wrote `report` to `destination` in `wallSeconds`.
  ///
  /// - Parameters:
  ///   - report: the sweep's results.
  ///   - wallSeconds: how long the sweep took.
  ///   - destination: where the report went.
  ///   - baseline: an earlier report, for the suggested `compare`; `nil` leaves a placeholder.
  ///   - tool: what the suggested commands call the tool.
  ///   - toolName: what the summary's first line starts with.
  ///   - tableSizes: the sizes `table` shows by default (its `--sizes`).
  /// - Complexity: O(1).
  package init(
    report: Report, wallSeconds: Double, destination: Destination, baseline: String? = nil,
    tool: String = "observatory", toolName: String = "observatory",
    tableSizes: [Int] = [1024, 1_048_576]
  ) {
    self.toolName = toolName
    self.report = report
    self.wallSeconds = wallSeconds
    self.destination = destination
    self.baseline = baseline
    self.tool = tool
    self.tableSizes = tableSizes
  }

  /// How many cells ended how.
  package struct Counts: Equatable, Sendable {
    /// Measured (`ok` or `ok-no-memory`).
    package var ok = 0
    /// Of those, measured without the memory columns (`ok-no-memory`).
    package var withoutMemory = 0
    /// Capped: out of budget, stopped, or skipped on projection.
    package var capped = 0
    /// Measured, but the workload's self-check failed.
    package var invalid = 0
    /// The cell's process failed.
    package var failed = 0
    /// Not run: the workload does not apply to the backend (`n/a`).
    package var notApplicable = 0
  }

  /// The cells by how they ended.
  ///
  /// - Complexity: O(*c*) for *c* cells.
  package var counts: Counts {
    var counts = Counts()
    for result in report.results {
      switch result.status {
      case .ok: counts.ok += 1
      case .okWithoutMemory:
        counts.ok += 1
        counts.withoutMemory += 1
      case .capped: counts.capped += 1
      case .invalid: counts.invalid += 1
      case .failed: counts.failed += 1
      case .notApplicable: counts.notApplicable += 1
      }
    }
    return counts
  }

  /// The rows with capped cells, most first (ties in report order), with how many.
  ///
  /// - Complexity: O(*c* log *c*) for *c* cells.
  package var mostCapped: [(backend: String, cells: Int)] {
    var order: [String] = []
    var cells: [String: Int] = [:]
    for result in report.results {
      guard case .capped = result.status else { continue }
      if cells[result.cell.backend] == nil { order.append(result.cell.backend) }
      cells[result.cell.backend, default: 0] += 1
    }
    return order.enumerated().sorted {
      (cells[$0.element]!, -$0.offset) > (cells[$1.element]!, -$1.offset)
    }.map { ($0.element, cells[$0.element]!) }
  }

  /// The summary in one line, for `--quiet`: the counts, the wall time and where the report
  /// went.
  ///
  /// - Complexity: O(*c*) for *c* cells.
  package var line: String {
    "\(toolName): \(headline); report: \(place)\n"
  }

  /// The summary in a few lines: the counts and wall time; where the report went; the three
  /// rows with the most capped cells; the first invalid and the first failed cell, with why;
  /// and, for a CSV report in a file, the `table`, `report` and `compare` commands to run
  /// on it.
  ///
  /// - Complexity: O(*c* log *c*) for *c* cells.
  package var text: String {
    var lines = ["\(toolName): \(headline)", "  report: \(place)"]
    let capped = mostCapped
    if !capped.isEmpty {
      lines.append(
        "  most capped: "
          + capped.prefix(3).map { "\($0.backend) (\($0.cells))" }.joined(separator: ", ")
          + (capped.count > 3 ? ", and \(capped.count - 3) more" : ""))
    }
    for (name, isIt) in [("invalid", Self.isInvalid), ("failed", Self.isFailed)] {
      let cells = report.results.filter(isIt)
      guard let first = cells.first else { continue }
      lines.append(
        "  \(name): \(Self.label(first.cell)): \(first.status.reason)"
          + (cells.count > 1 ? " (and \(cells.count - 1) more)" : ""))
    }
    if case .csv(let path) = destination {
      lines.append("  next:")
      lines += nextCommands(path).map { "    " + $0 }
      if baseline == nil { lines += noBaseline(path).map { "  " + $0 } }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The commands to run on the CSV report at `path`: its table (with `--allocator` and
  /// `--sizes` when the defaults would refuse it), its HTML page, and a comparison with the
  /// baseline when there is one that `compare` accepts; each of them runs as written.
  func nextCommands(_ path: String) -> [String] {
    var commands: [String] = []
    let shown = report.results.filter {
      [Workload.notify, .subscribe].contains($0.cell.workload)
        || ($0.cell.workload == .cancel && $0.cell.pattern == .random)
    }
    var allocators: [Allocator] = []
    for result in shown where !allocators.contains(result.cell.allocator) {
      allocators.append(result.cell.allocator)
    }
    if let allocator = allocators.first {
      var table = "\(tool) table \(Self.quoted(path))"
      if allocators.count > 1 { table += " --allocator \(allocator.rawValue)" }
      let sizes = Set(shown.filter { $0.cell.allocator == allocator }.map(\.cell.n)).sorted()
      if !tableSizes.contains(where: sizes.contains) {
        table += " --sizes " + sizes.suffix(2).map(String.init).joined(separator: ",")
      }
      commands.append(table)
    }
    let page = (path.hasSuffix(".csv") ? String(path.dropLast(4)) : path) + ".html"
    commands.append("\(tool) report \(Self.quoted(path)) --output \(Self.quoted(page))")
    if let baseline {
      commands.append("\(tool) compare \(Self.quoted(baseline)) \(Self.quoted(path))")
    }
    return commands
  }

  /// What to do when no report beside the one at `path` can be its base: how to make one.
  func noBaseline(_ path: String) -> [String] {
    [
      "no report beside it can be compared with it (compare needs the same cells, metric and"
        + " machine);",
      "to have one, run this sweep at the commit to compare with and compare the two, or"
        + " measure both builds at once with `\(tool) ab`",
    ]
  }

  private var headline: String {
    let counts = counts
    let memory = counts.withoutMemory > 0 ? " (\(counts.withoutMemory) without memory)" : ""
    return "\(report.results.count) cells in \(SweepProgress.format(wallSeconds)):"
      + " \(counts.ok) ok\(memory), \(counts.capped) capped, \(counts.invalid) invalid,"
      + " \(counts.failed) failed"
      + (counts.notApplicable > 0 ? ", \(counts.notApplicable) n/a" : "")
  }

  private var place: String {
    switch destination {
    case .csv(let path), .json(let path): return path
    case .standardOutput: return "standard output"
    }
  }

  private static func isInvalid(_ result: CellResult) -> Bool {
    if case .invalid = result.status { return true }
    return false
  }

  private static func isFailed(_ result: CellResult) -> Bool {
    if case .failed = result.status { return true }
    return false
  }

  /// A cell as the progress line names it: `jemalloc linked-list cancel fifo n=16`.
  private static func label(_ cell: Cell) -> String {
    "\(cell.allocator.rawValue) \(cell.backend) \(cell.workload.rawValue) \(cell.pattern.rawValue)"
      + (cell.depth > 0 ? " depth=\(cell.depth)" : "") + " n=\(cell.n)"
      + (cell.workload.isContended ? " threads=\(cell.threads)" : "")
  }

  /// `text` as one shell word: as it is when it holds only characters no shell treats
  /// specially, else in single quotes.
  static func quoted(_ text: String) -> String {
    let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,:=+@%")
    if !text.isEmpty && text.allSatisfy(plain.contains) { return text }
    return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
