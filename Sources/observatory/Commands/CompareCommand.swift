import ArgumentParser
import Foundation

/// `observatory compare BASE CANDIDATE`: a verdict on two reports CI can gate on.
struct CompareCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compare",
    abstract: "Compare two reports cell by cell; exit 2 if the candidate regressed.",
    discussion: """
      A cell regresses when its median got slower by more than --threshold percent and by more
      than the noise of its repetitions: the candidate's fastest repetition is slower than the
      base's slowest, and the change exceeds the two relative ranges ((max - min) / median)
      added. A cell that was measured in the base but is invalid or failed in the candidate also
      regresses; one that is capped in the candidate is reported, not gated on. Exit status: 0 no regression,
      2 regression, 1 usage or input error.
      """)

  @Argument(help: "The base report (CSV).") var base: String
  @Argument(help: "The candidate report (CSV).") var candidate: String

  @Option(name: .long, help: "Percent slower a median must be to count (default 5).")
  var threshold: Double = 5

  @Option(name: .long, help: "text or markdown.") var format: String = "text"

  func validate() throws {
    guard threshold >= 0 else {
      throw ValidationError("--threshold must be 0 or more, got \(threshold)")
    }
    guard ["text", "markdown"].contains(format) else {
      throw ValidationError("unknown format '\(format)' in --format; accepted: text, markdown")
    }
  }

  func run() throws {
    let baseRows: [ReportRow]
    let candidateRows: [ReportRow]
    do {
      baseRows = try ReportReader.read(base)
      candidateRows = try ReportReader.read(candidate)
    } catch let error as ReportError {
      throw ValidationError(error.description)
    }
    let comparison = Comparison(
      base: baseRows, candidate: candidateRows, threshold: threshold / 100)
    print(format == "markdown" ? comparison.markdown : comparison.text, terminator: "")
    if !comparison.regressions.isEmpty { throw ExitCode(2) }
  }
}

/// The cell-by-cell comparison of two reports.
struct Comparison {
  struct Cell {
    var key: String
    var base: ReportRow
    var candidate: ReportRow
    var ratio: Double?
    var verdict: Verdict
  }

  enum Verdict: String {
    case regression, improvement, unchanged
    case noisy = "within noise"
    case notComparable = "not comparable"
    /// Measured in the base, capped in the candidate: slower than the budget, by how much
    /// unknown. Near the budget this flips with noise, so it is reported, not gated on.
    case capped = "capped in candidate"
  }

  var cells: [Cell] = []
  var onlyInBase: [String] = []
  var onlyInCandidate: [String] = []

  var regressions: [Cell] { cells.filter { $0.verdict == .regression } }

  init(base: [ReportRow], candidate: [ReportRow], threshold: Double) {
    let candidates = Dictionary(
      candidate.map { ($0.cellKey, $0) }, uniquingKeysWith: { _, last in last })
    let bases = Dictionary(base.map { ($0.cellKey, $0) }, uniquingKeysWith: { _, last in last })
    for row in base {
      guard let other = candidates[row.cellKey] else {
        onlyInBase.append(row.cellKey)
        continue
      }
      cells.append(Self.compare(row, other, threshold: threshold))
    }
    onlyInCandidate = candidate.map(\.cellKey).filter { bases[$0] == nil }
  }

  static func measured(_ row: ReportRow) -> Bool {
    (row["status"] == "ok" || row["status"] == "ok-no-memory") && row.number("ns_median") != nil
  }

  static func compare(_ base: ReportRow, _ candidate: ReportRow, threshold: Double) -> Cell {
    var cell = Cell(
      key: base.cellKey, base: base, candidate: candidate, ratio: nil, verdict: .notComparable)
    guard measured(base) else { return cell }
    guard measured(candidate) else {
      cell.verdict = candidate["status"] == "capped" ? .capped : .regression
      return cell
    }
    let baseMedian = base.number("ns_median")!
    let candidateMedian = candidate.number("ns_median")!
    guard baseMedian > 0 else { return cell }
    let ratio = candidateMedian / baseMedian
    cell.ratio = ratio
    func spread(_ row: ReportRow) -> Double {
      guard let minimum = row.number("ns_min"), let maximum = row.number("ns_max"),
        let median = row.number("ns_median"), median > 0
      else { return 0 }
      return (maximum - minimum) / median
    }
    // The noise seen in the repetitions: their whole range on each side, added.
    let noise = spread(base) + spread(candidate)
    let change = ratio - 1
    if change > threshold {
      let separated =
        (candidate.number("ns_min") ?? candidateMedian) > (base.number("ns_max") ?? baseMedian)
      cell.verdict = separated && change > noise ? .regression : .noisy
    } else if -change > threshold {
      let separated =
        (candidate.number("ns_max") ?? candidateMedian) < (base.number("ns_min") ?? baseMedian)
      cell.verdict = separated && -change > noise ? .improvement : .noisy
    } else {
      cell.verdict = .unchanged
    }
    return cell
  }

  private func describe(_ row: ReportRow) -> String {
    Self.measured(row) ? (row["ns_median"] + " ns") : row["status"]
  }

  private var tableRows: [[String]] {
    cells.map { cell in
      [
        cell.key, describe(cell.base), describe(cell.candidate),
        cell.ratio.map { String(format: "%+.1f%%", ($0 - 1) * 100) } ?? "-", cell.verdict.rawValue,
      ]
    }
  }

  private var summary: String {
    let counts = Dictionary(grouping: cells, by: \.verdict.rawValue).mapValues(\.count)
    let parts = counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(
      separator: ", ")
    return "\(cells.count) cells compared: \(parts)"
      + (onlyInBase.isEmpty ? "" : "; \(onlyInBase.count) only in the base")
      + (onlyInCandidate.isEmpty ? "" : "; \(onlyInCandidate.count) only in the candidate")
      + (regressions.isEmpty ? ". No regression." : ". \(regressions.count) regression(s).")
  }

  var text: String {
    let header = [
      "cell (allocator/backend/workload/pattern/n/depth)", "base", "candidate", "change", "verdict",
    ]
    let rows = [header] + tableRows
    let widths = (0..<header.count).map { column in rows.map { $0[column].count }.max() ?? 0 }
    let lines = rows.map { row in
      row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
        .joined(separator: "  ")
    }
    return (lines + [summary]).joined(separator: "\n") + "\n"
  }

  var markdown: String {
    var lines = ["| cell | base | candidate | change | verdict |", "|---|---:|---:|---:|---|"]
    for row in tableRows {
      let verdict = row[4] == Verdict.regression.rawValue ? "**regression**" : row[4]
      lines.append("| `\(row[0])` | \(row[1]) | \(row[2]) | \(row[3]) | \(verdict) |")
    }
    return (lines + ["", summary]).joined(separator: "\n") + "\n"
  }
}
