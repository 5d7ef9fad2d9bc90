import Foundation

/// Runs one cell on two builds, interleaved, and judges the ratio of their costs.
struct PairedRunner {
  let base: CellRunner
  let candidate: CellRunner
  let rounds: Int
  let repetitions: Int
  let threshold: Double
  let confidence: Double

  /// One cell measured on both builds.
  struct Cell {
    var plan: CellPlan
    /// One sample per process: the median nanoseconds per operation of its repetitions.
    var baseSamples: [Double] = []
    var candidateSamples: [Double] = []
    var estimate: RatioEstimate?
    var verdict: Comparison.Verdict = .notComparable
    var reason = ""
  }

  /// The order of the four processes of a round: base, candidate, candidate, base.
  static let roundOrder = [false, true, true, false]

  func run(_ plan: CellPlan) -> Cell {
    var cell = Cell(plan: plan)
    // The base calibrates; every process then does the same work.
    let scale: Double
    switch base.runProcess(plan, repetitions: 1, budget: base.budget, scale: nil) {
    case .finished(let outcome) where outcome.problem == nil && !outcome.capped:
      guard let calibrated = outcome.scale else {
        cell.reason = "the base build prints no work scale: it predates `ab`"
        return cell
      }
      scale = calibrated
    case .finished(let outcome):
      cell.reason = "not measured in the base: " + (outcome.problem ?? "capped")
      return cell
    case .timedOut:
      cell.reason = "not measured in the base: capped"
      return cell
    case .failed(let reason):
      cell.reason = "not measured in the base: \(reason)"
      return cell
    }
    if let failure = measureRounds(&cell, scale: scale) { return failure }
    cell = judge(cell)
    guard cell.verdict == .regression || cell.verdict == .improvement else { return cell }
    // A verdict must survive a second measurement: a burst of load that happened to hit one
    // build's processes more than the other's does not come back on cue, a real change does.
    // The second batch of rounds must by itself move the same way past the threshold, and
    // the interval over both batches must still clear it.
    let first = cell.verdict
    var second = Cell(plan: plan)
    if let failure = measureRounds(&second, scale: scale) { return failure }
    cell.baseSamples += second.baseSamples
    cell.candidateSamples += second.candidateSamples
    cell = judge(cell)
    let repeated = RatioEstimate(
      base: second.baseSamples, candidate: second.candidateSamples, confidence: confidence)
    let confirmed =
      repeated.map {
        first == .regression ? $0.ratio > 1 + threshold : $0.ratio < 1 - threshold
      } ?? false
    if cell.verdict != first || !confirmed {
      cell.verdict = .inconclusive
      cell.reason = "not confirmed by a second measurement"
    }
    return cell
  }

  /// Runs `rounds` rounds of base, candidate, candidate, base into `cell`'s samples; the cell
  /// to report if a process failed.
  private func measureRounds(_ cell: inout Cell, scale: Double) -> Cell? {
    for _ in 0..<rounds {
      for isCandidate in Self.roundOrder {
        let runner = isCandidate ? candidate : base
        switch runner.runProcess(
          cell.plan, repetitions: repetitions, budget: runner.budget, scale: scale)
        {
        case .finished(let outcome)
        where outcome.problem == nil && !outcome.capped
          && !outcome.nanosecondsPerOperation.isEmpty:
          let sample = Summary(outcome.nanosecondsPerOperation)!.median
          if isCandidate {
            cell.candidateSamples.append(sample)
          } else {
            cell.baseSamples.append(sample)
          }
        case let result:
          return judgeFailure(cell, result, isCandidate: isCandidate)
        }
      }
    }
    return nil
  }

  private func judgeFailure(_ cell: Cell, _ result: CellRunner.Result, isCandidate: Bool) -> Cell {
    var cell = cell
    let what: String
    var capped = false
    switch result {
    case .finished(let outcome) where outcome.problem != nil: what = outcome.problem!
    case .finished, .timedOut:
      what = "ran out of its time budget"
      capped = true
    case .failed(let reason): what = reason
    }
    if isCandidate {
      cell.verdict = capped ? .capped : .regression
      cell.reason = "the candidate \(what)"
    } else {
      cell.reason = "the base \(what)"
    }
    return cell
  }

  private func judge(_ cell: Cell) -> Cell {
    var cell = cell
    guard
      let estimate = RatioEstimate(
        base: cell.baseSamples, candidate: cell.candidateSamples, confidence: confidence)
    else {
      cell.reason = "too few samples for a \(csvNumber(confidence * 100))% interval"
      return cell
    }
    cell.estimate = estimate
    cell.verdict = Self.verdict(estimate, threshold: threshold)
    if cell.verdict == .inconclusive { cell.reason = "the interval reaches past the threshold" }
    return cell
  }

  /// Regression when the whole interval lies above 1 + `threshold`, improvement when below
  /// 1 - `threshold`, unchanged when within both, inconclusive otherwise.
  static func verdict(_ estimate: RatioEstimate, threshold: Double) -> Comparison.Verdict {
    if estimate.lower > 1 + threshold { return .regression }
    if estimate.upper < 1 - threshold { return .improvement }
    if estimate.lower >= 1 - threshold && estimate.upper <= 1 + threshold { return .unchanged }
    return .inconclusive
  }
}

/// The verdicts of `ab`, as text or Markdown.
struct PairedReport {
  let cells: [PairedRunner.Cell]
  let threshold: Double
  let confidence: Double

  var regressions: [PairedRunner.Cell] { cells.filter { $0.verdict == .regression } }

  private func name(_ plan: CellPlan) -> String {
    [
      plan.allocator.rawValue, plan.backend, plan.workload, plan.pattern, String(plan.n),
      String(plan.depth),
    ].joined(separator: "/")
  }

  private func columns(_ cell: PairedRunner.Cell) -> [String] {
    let median = { (values: [Double]) in
      Summary(values).map { csvNumber($0.median) + " ns" } ?? "-"
    }
    guard let estimate = cell.estimate else {
      return [name(cell.plan), median(cell.baseSamples), median(cell.candidateSamples), "-", "-"]
    }
    return [
      name(cell.plan), median(cell.baseSamples), median(cell.candidateSamples),
      String(format: "%+.1f%%", (estimate.ratio - 1) * 100),
      String(format: "[%+.1f%%, %+.1f%%]", (estimate.lower - 1) * 100, (estimate.upper - 1) * 100),
    ]
  }

  private func shown(_ changesOnly: Bool) -> [PairedRunner.Cell] {
    changesOnly ? cells.filter { $0.verdict != .unchanged } : cells
  }

  var summary: String {
    let counts = Dictionary(grouping: cells, by: \.verdict).mapValues(\.count)
    let parts = Comparison.Verdict.allCases.compactMap { verdict in
      counts[verdict].map { "\($0) \(verdict.rawValue)" }
    }.joined(separator: ", ")
    return "\(cells.count) cells measured on both builds, interleaved, at a"
      + " \(csvNumber(threshold * 100))% threshold with \(csvNumber(confidence * 100))% intervals:"
      + " \(parts)"
      + (regressions.isEmpty ? ". No regression." : ". \(regressions.count) regression(s).")
  }

  func text(changesOnly: Bool = false) -> String {
    let header = [
      "cell (allocator/backend/workload/pattern/n/depth)", "base", "candidate", "change",
      "\(csvNumber(confidence * 100))% interval", "verdict",
    ]
    let rows =
      [header]
      + shown(changesOnly).map {
        columns($0) + [$0.verdict.rawValue + ($0.reason.isEmpty ? "" : ": " + $0.reason)]
      }
    return TextTable.render(rows) + summary + "\n"
  }

  func markdown(changesOnly: Bool = false) -> String {
    var lines = [
      summary, "",
      "| cell | base | candidate | change | \(csvNumber(confidence * 100))% interval | verdict |",
      "|---|---:|---:|---:|---:|---|",
    ]
    for cell in shown(changesOnly) {
      let verdict = cell.verdict == .regression ? "**regression**" : cell.verdict.rawValue
      lines.append("| " + columns(cell).joined(separator: " | ") + " | \(verdict) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
