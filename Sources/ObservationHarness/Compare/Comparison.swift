import Foundation

/// The cell-by-cell comparison of two reports of one metric.
///
/// Instruction counts are repeatable: a cell regresses when its count grew by more than the
/// threshold and by more than the spread its processes showed (zero for a synchronous backend).
///
/// Wall-clock times of two separate runs differ by more than their own repetitions show: on a
/// shared machine a single cell can measure twice as slow in one run as in the next, every
/// repetition on its side. So a time cell regresses only when its change
/// - exceeds the threshold,
/// - separates the two runs' repetitions (the candidate's fastest is slower than the base's
///   slowest),
/// - stands out from the between-run scatter of this very comparison: the log ratio of every
///   cell measured on both sides is a sample of it, and a cell must sit more than
///   `scatterMultiple` robust deviations beyond their median (the drift of the run as a
///   whole), and
/// - is seen again at a neighbouring size of the same series: a change in code shows at more
///   than one size, while a slow moment of the machine hits one cell.
///
/// A cell that passes the threshold and fails any of the rest is `inconclusive`: its change
/// cannot be told from the weather. `ab` (paired, interleaved runs) or `--metric instructions`
/// can tell.
public struct Comparison {
  /// One cell present in both reports.
  public struct Entry {
    /// The cell's key: allocator, backend, workload, pattern, depth and size.
    public var key: String
    /// The cell's result in the base report.
    public var base: CellResult
    /// The cell's result in the candidate report.
    public var candidate: CellResult
    /// Candidate cost over base cost, if both were measured.
    var ratio: Double?
    /// What the comparison concludes for this cell.
    public var verdict: Verdict
    /// Why a cell is inconclusive or not comparable.
    var reason: String = ""
  }

  /// What a comparison concludes for one cell.
  public enum Verdict: String, CaseIterable {
    case regression, improvement, unchanged, inconclusive
    case notComparable = "not comparable"
    /// Measured in the base, capped in the candidate: slower than the budget, by how much
    /// unknown. Near the budget this flips with noise, so it is reported, not gated on.
    case capped = "capped in candidate"
  }

  /// How far beyond the median log ratio, in robust standard deviations of the between-run
  /// scatter, a time cell must lie to stand out.
  static let scatterMultiple = 4.0
  /// Fewer time cells than this in common give no estimate of the between-run scatter.
  static let minimumCellsForScatter = 8

  let metric: Metric
  let threshold: Double
  /// Every cell present in both reports, in the base report's order.
  public var cells: [Entry] = []
  var onlyInBase: [String] = []
  var onlyInCandidate: [String] = []
  /// Time: the median change over every cell measured on both sides (the machine's drift).
  var drift: Double?
  /// Time: the robust standard deviation of the log ratios (the between-run scatter).
  var scatter: Double?

  /// The cells called a regression: what makes `compare` exit with status 2.
  ///
  ///  - Complexity: O(*c*) for *c* cells.
  public var regressions: [Entry] { cells.filter { $0.verdict == .regression } }

  /// Why two reports cannot be compared.
  public enum InputError: Error, CustomStringConvertible {
    case nothingInCommon(base: String, candidate: String)
    case mixed(String)

    /// The reason, in one sentence.
    public var description: String {
      switch self {
      case .nothingInCommon(let base, let candidate):
        return "the reports share no cell (base: \(base); candidate: \(candidate)); compare"
          + " reports of the same allocator, backends, workloads and sizes"
      case .mixed(let problem): return problem
      }
    }
  }

  /// Compares `candidate` with `base`.
  ///
  /// - Parameters:
  ///   - base: the base report's results.
  ///   - candidate: the candidate report's results.
  ///   - threshold: the smallest relative change that counts (0.05 is 5%).
  /// - Throws: ``InputError`` when no cell is in both, or when the cells in both differ in
  ///   metric or schema.
  public init(base: [CellResult], candidate: [CellResult], threshold: Double) throws {
    let bases = Dictionary(base.map { ($0.cell.key, $0) }, uniquingKeysWith: { first, _ in first })
    let candidates = Dictionary(
      candidate.map { ($0.cell.key, $0) }, uniquingKeysWith: { first, _ in first })
    let shared = base.filter { candidates[$0.cell.key] != nil }
    guard !shared.isEmpty else {
      throw InputError.nothingInCommon(
        base: Self.describe(base), candidate: Self.describe(candidate))
    }
    for row in shared {
      let other = candidates[row.cell.key]!
      if row.metric != other.metric {
        throw InputError.mixed(
          "cell \(row.cell.key) is measured in \(row.metric.rawValue) in the base and in"
            + " \(other.metric.rawValue) in the candidate; compare reports of one metric")
      }
      if row.schema != other.schema {
        throw InputError.mixed(
          "cell \(row.cell.key) comes from a schema \(row.schema) report in the base and a"
            + " schema \(other.schema) report in the candidate: they were measured by"
            + " different versions of the harness; measure both with one (or use `ab`)")
      }
    }
    metric = shared[0].metric
    self.threshold = threshold
    onlyInBase = base.map(\.cell.key).filter { candidates[$0] == nil }
    onlyInCandidate = candidate.map(\.cell.key).filter { bases[$0] == nil }
    cells = shared.map { Self.pair($0, candidates[$0.cell.key]!) }
    switch metric {
    case .instructions: judgeCounts()
    case .time: judgeTimes()
    }
  }

  /// Compares the reports read as rows (see ``init(base:candidate:threshold:)-([CellResult],_,_)``).
  ///
  /// - Throws: ``InputError``, as the typed initializer does.
  public init(base: [ReportRow], candidate: [ReportRow], threshold: Double) throws {
    try self.init(
      base: base.compactMap(CellResult.init), candidate: candidate.compactMap(CellResult.init),
      threshold: threshold)
  }

  /// Allocators, metrics and cell counts of a report, for an error message.
  private static func describe(_ results: [CellResult]) -> String {
    func values(_ value: (CellResult) -> String) -> String {
      Array(Set(results.map(value))).sorted().joined(separator: "+")
    }
    return "\(results.count) cells, allocator \(values { $0.cell.allocator.rawValue }),"
      + " metric \(values { $0.metric.rawValue }), backends \(values { $0.cell.backend })"
  }

  /// Whether `result` holds a measurement (status `ok`) that a comparison can use.
  public static func measured(_ result: CellResult) -> Bool {
    result.status.isMeasured && (result.cost ?? 0) > 0
  }

  /// The pair with its ratio, and the verdicts that need no noise model.
  private static func pair(_ base: CellResult, _ candidate: CellResult) -> Entry {
    var cell = Entry(
      key: base.cell.key, base: base, candidate: candidate, ratio: nil, verdict: .notComparable)
    guard measured(base) else {
      cell.reason = "not measured in the base (\(base.status.name))"
      return cell
    }
    guard measured(candidate) else {
      if case .capped = candidate.status {
        cell.verdict = .capped
      } else {
        cell.verdict = .regression
      }
      return cell
    }
    cell.ratio = candidate.cost! / base.cost!
    cell.verdict = .unchanged
    return cell
  }

  private mutating func judgeCounts() {
    for index in cells.indices {
      guard let ratio = cells[index].ratio else { continue }
      let change = ratio - 1
      guard abs(change) > threshold else { continue }
      // Processes of an asynchronous backend may count differently; their spread is noise.
      let spread =
        (cells[index].base.instructionsSpread ?? 0)
        + (cells[index].candidate.instructionsSpread ?? 0)
      if abs(change) > spread {
        cells[index].verdict = change > 0 ? .regression : .improvement
      } else {
        cells[index].verdict = .inconclusive
        cells[index].reason = String(
          format: "within the spread of the processes' counts (%.1f%%)", spread * 100)
      }
    }
  }

  private mutating func judgeTimes() {
    let logs = cells.compactMap { $0.ratio.map(Foundation.log) }
    var center = 0.0
    if logs.count >= Self.minimumCellsForScatter {
      center = Self.median(logs)
      let deviation = 1.4826 * Self.median(logs.map { abs($0 - center) })
      drift = exp(center) - 1
      scatter = deviation
    }
    // A cell stands out when its log ratio lies beyond the between-run scatter.
    func standsOut(_ cell: Entry, upward: Bool) -> Bool {
      guard let ratio = cell.ratio, let scatter else { return false }
      let distance = Foundation.log(ratio) - center
      let band = max(Self.scatterMultiple * scatter, Foundation.log(1 + threshold))
      return upward ? distance > band : -distance > band
    }
    // Neighbouring sizes of each series, for corroboration.
    var series: [Cell.Series: [Int]] = [:]
    for (index, cell) in cells.enumerated() {
      series[cell.base.cell.series, default: []].append(index)
    }
    for members in series.values {
      let bySize = members.sorted { cells[$0].base.cell.n < cells[$1].base.cell.n }
      for (position, index) in bySize.enumerated() {
        let cell = cells[index]
        guard let ratio = cell.ratio, abs(ratio - 1) > threshold else { continue }
        let upward = ratio > 1
        let (base, candidate) = (cell.base, cell.candidate)
        let separated =
          upward
          ? candidate.nanoseconds!.min > base.nanoseconds!.max
          : candidate.nanoseconds!.max < base.nanoseconds!.min
        let neighbours = [position - 1, position + 1].filter { bySize.indices.contains($0) }
          .map { cells[bySize[$0]] }
        let corroborated = neighbours.contains { standsOut($0, upward: upward) }
        var reason = ""
        if scatter == nil {
          reason =
            "fewer than \(Self.minimumCellsForScatter) cells in common: the between-run"
            + " scatter is unknown"
        } else if !separated {
          reason = "the two runs' repetitions overlap"
        } else if !standsOut(cell, upward: upward) {
          reason = String(
            format: "within the between-run scatter (%.0f%% at %.0f deviations)",
            (exp(Self.scatterMultiple * scatter!) - 1) * 100, Self.scatterMultiple)
        } else if !corroborated {
          reason = "no neighbouring size of its series moved with it"
        }
        if reason.isEmpty {
          cells[index].verdict = upward ? .regression : .improvement
        } else {
          cells[index].verdict = .inconclusive
          cells[index].reason = reason
        }
      }
    }
  }

  private static func median(_ values: [Double]) -> Double {
    Summary(values)?.median ?? 0
  }

  // MARK: - Output

  private func describe(_ result: CellResult) -> String {
    Self.measured(result) ? result.costText : result.status.name
  }

  private func change(_ cell: Entry) -> String {
    cell.ratio.map { String(format: "%+.1f%%", ($0 - 1) * 100) } ?? "-"
  }

  /// Cells in report order, or only those whose verdict is not `unchanged`.
  private func shown(changesOnly: Bool) -> [Entry] {
    changesOnly ? cells.filter { $0.verdict != .unchanged } : cells
  }

  var summary: String {
    let counts = Dictionary(grouping: cells, by: \.verdict).mapValues(\.count)
    let parts = Verdict.allCases.compactMap { verdict in
      counts[verdict].map { "\($0) \(verdict.rawValue)" }
    }.joined(separator: ", ")
    var text =
      "\(cells.count) \(metric.rawValue) cells compared at a \(csvNumber(threshold * 100))%"
      + " threshold: \(parts)"
      + (onlyInBase.isEmpty ? "" : "; \(onlyInBase.count) only in the base")
      + (onlyInCandidate.isEmpty ? "" : "; \(onlyInCandidate.count) only in the candidate")
      + (regressions.isEmpty ? ". No regression." : ". \(regressions.count) regression(s).")
    if let drift, let scatter {
      text += String(
        format: "\nBetween the runs: the median cell moved %+.1f%%, the scatter is %.1f%% (one"
          + " robust deviation).", drift * 100, (exp(scatter) - 1) * 100)
    }
    if counts[.inconclusive] != nil {
      text +=
        "\nInconclusive cells changed by more than the threshold but not by more than this"
        + " comparison can tell from noise: measure them with `observatory ab` (both builds,"
        + " interleaved) or `--metric instructions`."
    }
    return text
  }

  /// A plain-text table of the cells, then the summary.
  public func text(changesOnly: Bool = false) -> String {
    let header = [
      "cell (allocator/backend/workload/pattern/n/depth)", "base", "candidate", "change", "verdict",
    ]
    let rows =
      [header]
      + shown(changesOnly: changesOnly).map { cell in
        [
          cell.key, describe(cell.base), describe(cell.candidate), change(cell),
          cell.verdict.rawValue + (cell.reason.isEmpty ? "" : ": " + cell.reason),
        ]
      }
    return TextTable.render(rows) + summary + "\n"
  }

  /// Markdown for a pull-request comment: the summary, the cells that did not stay unchanged,
  /// then the unchanged ones folded away in a compact form.
  public func markdown(changesOnly: Bool = false) -> String {
    let allocators = Set(cells.map(\.base.cell.allocator))
    func name(_ result: CellResult) -> String {
      let cell = result.cell
      var parts = [cell.backend, cell.workload.rawValue]
      if cell.pattern != .none { parts.append(cell.pattern.rawValue) }
      parts.append("n=\(cell.n)")
      if cell.depth != 0 { parts.append("d=\(cell.depth)") }
      if allocators.count > 1 { parts.insert(cell.allocator.rawValue, at: 0) }
      return parts.joined(separator: " ")
    }
    // Verdicts worth reading come first, in full; the rest fold away.
    let folded: Set<Verdict> = [.unchanged, .notComparable]
    let changed = cells.filter { !folded.contains($0.verdict) }.sorted {
      Verdict.allCases.firstIndex(of: $0.verdict)! < Verdict.allCases.firstIndex(of: $1.verdict)!
    }
    var lines = [summary.replacingOccurrences(of: "\n", with: "\n\n"), ""]
    if !changed.isEmpty {
      lines += ["| cell | base | candidate | change | verdict |", "|---|---:|---:|---:|---|"]
      for cell in changed {
        let verdict =
          cell.verdict == .regression ? "**regression**" : cell.verdict.rawValue
        lines.append(
          "| \(name(cell.base)) | \(describe(cell.base)) | \(describe(cell.candidate))"
            + " | \(change(cell)) | \(verdict) |")
      }
    }
    if !changesOnly {
      let notComparable = cells.filter { $0.verdict == .notComparable }
      if !notComparable.isEmpty {
        lines += [
          "", "<details><summary>\(notComparable.count) cells not measured in the base</summary>",
          "", "| cell | base | candidate |", "|---|---|---:|",
        ]
        for cell in notComparable {
          lines.append(
            "| \(name(cell.base)) | \(cell.base.status.name) | \(describe(cell.candidate)) |")
        }
        lines += ["", "</details>"]
      }
      let unchanged = cells.filter { $0.verdict == .unchanged }
      if !unchanged.isEmpty {
        lines += [
          "", "<details><summary>\(unchanged.count) unchanged cells</summary>", "",
          "| cell | base | change |", "|---|---:|---:|",
        ]
        for cell in unchanged {
          lines.append("| \(name(cell.base)) | \(describe(cell.base)) | \(change(cell)) |")
        }
        lines += ["", "</details>"]
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
