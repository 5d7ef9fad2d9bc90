import ArgumentParser
import Foundation
import ObservationHarness
import ObservationReports
import ObservationWorkloads

/// `observatory table REPORT`: the README's headline table, from a report.
struct TableCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "table",
    abstract: "Print a Markdown table of notify / subscribe / cancel per backend at some sizes.",
    discussion: """
      When the report has contended workloads, a second table follows for each size they were \
      measured at: each thread-safe backend's cost per operation at each thread count, and a \
      line naming the backends they do not apply to (n/a).
      """)

  /// The sizes shown when `--sizes` is not given, those of them the report has.
  static let defaultSizes = [1024, 1_048_576]

  @Argument(help: "A report (CSV).") var report: String
  @Option(
    name: .long,
    help: "Observer counts (comma-separated); default: those of 1024, 1048576 the report has.",
    transform: CommaSeparated<Int>.parser(entry: "size", in: CellSelection.sizeRange))
  var sizes: CommaSeparated<Int>?
  @Option(
    name: .long, help: "Allocator whose rows to show; default: the report's, if it has one.")
  var allocator: Allocator?
  @Option(name: .long, help: "markdown, or json (the results the table shows).")
  var format: TableFormat = .markdown

  /// How `table` prints.
  enum TableFormat: String, CaseIterable, ExpressibleByArgument {
    /// The README's Markdown table.
    case markdown
    /// JSON: the report's results the table shows, as `run --format json` writes them.
    case json
  }

  func run() throws {
    try StandardOutput.write(try table())
  }

  /// The table's Markdown, or its results as JSON.
  ///
  /// - Throws: a one-line `ValidationError` when the report cannot be read, or has no row of
  ///   the allocator or at a size asked for (a table without rows is no answer).
  func table() throws -> String {
    let rows: [CellResult]
    do { rows = try Report.read(report).results } catch let error as ReportError {
      throw ValidationError(error.description)
    }
    let allocators = Allocator.allCases.filter { allocator in
      rows.contains { $0.cell.allocator == allocator }
    }
    let names = allocators.map(\.rawValue).sorted().joined(separator: ", ")
    guard let chosen = allocator ?? (allocators.count == 1 ? allocators[0] : nil) else {
      throw ValidationError(
        "\(report) holds rows of several allocators (\(names)); choose one with --allocator")
    }
    guard allocators.contains(chosen) else {
      throw ValidationError(
        "\(report) has no row of allocator '\(chosen.rawValue)'; it has: \(names)")
    }
    let shown = rows.filter { $0.cell.allocator == chosen && Self.isShown($0) }
    let available = Set(shown.map(\.cell.n)).sorted()
    let contended = rows.filter { $0.cell.allocator == chosen && $0.cell.workload.isContended }
    if available.isEmpty && !contended.isEmpty && sizes == nil {
      return format == .json ? try Report(contended).json() : Self.contendedMarkdown(contended)
    }
    guard !available.isEmpty else {
      throw ValidationError(
        "\(report) has no notify, subscribe or cancel (random) row of allocator '\(chosen.rawValue)',"
          + " the workloads the table shows")
    }
    let has =
      "\(report) has notify, subscribe or cancel (random) rows of allocator '\(chosen.rawValue)' at n = "
      + Self.list(available)
    let counts: [Int]
    if let requested = sizes?.elements {
      let missing = requested.filter { !available.contains($0) }
      guard missing.isEmpty else {
        throw ValidationError("--sizes asks for n = \(Self.list(missing)); \(has) only")
      }
      counts = requested
    } else {
      counts = Self.defaultSizes.filter(available.contains)
      guard !counts.isEmpty else {
        throw ValidationError(
          "none of the default sizes (n = \(Self.list(Self.defaultSizes))): \(has); choose"
            + " with --sizes")
      }
    }
    if format == .json {
      return try Report(shown.filter { counts.contains($0.cell.n) } + contended).json()
    }
    return Self.markdown(shown, sizes: counts) + Self.contendedMarkdown(contended)
  }

  /// A table per size of the contended rows: a row per backend they apply to, a column per
  /// workload and thread count, then the backends they do not apply to; empty without rows.
  ///
  /// - Complexity: O(*r*²) for *r* rows.
  static func contendedMarkdown(_ rows: [CellResult]) -> String {
    var text = ""
    let workloads = Workload.allCases.filter { workload in
      rows.contains { $0.cell.workload == workload }
    }
    for n in Set(rows.map(\.cell.n)).sorted() {
      let atSize = rows.filter { $0.cell.n == n }
      let threads = Set(atSize.map(\.cell.threads)).sorted()
      var backends: [String] = []
      var inapplicable: [String] = []
      for row in atSize {
        let isInapplicable: Bool
        if case .notApplicable = row.status {
          isInapplicable = true
        } else {
          isInapplicable = false
        }
        let name = row.cell.backend
        if isInapplicable {
          if !inapplicable.contains(name) { inapplicable.append(name) }
        } else if !backends.contains(name) {
          backends.append(name)
        }
      }
      inapplicable.removeAll(where: backends.contains)
      var header = "| backend |"
      var rule = "|---|"
      for workload in workloads {
        for count in threads {
          header += " \(workload.rawValue) t=\(count) |"
          rule += "---:|"
        }
      }
      var lines = ["", "Contended workloads at n = \(n): cost per operation with t threads.", ""]
      lines += [header, rule]
      for backend in backends {
        var line = "| `\(backend)` |"
        for workload in workloads {
          for count in threads {
            let row = atSize.first {
              $0.cell.backend == backend && $0.cell.workload == workload
                && $0.cell.threads == count
            }
            line += " " + (row.map { $0.cost == nil ? $0.status.name : $0.costText } ?? "—") + " |"
          }
        }
        lines.append(line)
      }
      if !inapplicable.isEmpty {
        lines += [
          "",
          "n/a (threadSafe is not declared): "
            + inapplicable.map { "`\($0)`" }.joined(separator: ", "),
        ]
      }
      text += lines.joined(separator: "\n") + "\n"
    }
    return text
  }

  /// Whether the table has a column for `row`'s workload and pattern.
  static func isShown(_ row: CellResult) -> Bool {
    columns.contains { $0 == (row.cell.workload, row.cell.pattern) }
  }

  /// The workload and pattern of each column of a size, in order.
  static let columns = SweepPlan.headlineWorkloads

  private static func list(_ sizes: [Int]) -> String {
    sizes.map(String.init).joined(separator: ", ")
  }

  static func markdown(_ rows: [CellResult], sizes: [Int]) -> String {
    var backends: [String] = []
    for row in rows where !backends.contains(row.cell.backend) {
      backends.append(row.cell.backend)
    }
    func cell(
      _ backend: String, _ workload: Workload, _ pattern: WorkloadPattern, _ n: Int
    ) -> String {
      guard
        let row = rows.first(where: {
          $0.cell.backend == backend && $0.cell.workload == workload
            && $0.cell.pattern == pattern && $0.cell.n == n
        })
      else { return "—" }
      guard row.cost != nil else { return row.status.name }
      var text = row.costText
      if let ratio = row.ratioToLimit { text += " (" + readableRatio(ratio) + ")" }
      return text
    }
    var header = "| backend |"
    var rule = "|---|"
    for n in sizes {
      header += " notify n=\(n) | subscribe n=\(n) | cancel (random) n=\(n) |"
      rule += "---:|---:|---:|"
    }
    var lines = [header, rule]
    for backend in backends {
      let cells = sizes.flatMap { n in
        [
          cell(backend, .notify, .single, n), cell(backend, .subscribe, .single, n),
          cell(backend, .cancel, .random, n),
        ]
      }
      if cells.allSatisfy({ $0 == "—" }) { continue }
      var line = "| `\(backend)` |"
      for n in sizes {
        line +=
          " \(cell(backend, .notify, .single, n)) | \(cell(backend, .subscribe, .single, n)) |"
          + " \(cell(backend, .cancel, .random, n)) |"
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
