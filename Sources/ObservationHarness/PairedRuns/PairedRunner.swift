import Foundation
import ObservationReports

/// Runs one cell on two builds, in turn, and judges the ratio of their costs.
///
/// A round starts one process of each build on the same work; the two take turns through
/// ``TurnTaking``, one repetition each, so that every base repetition has a candidate
/// repetition made within milliseconds of it. The round's ratio is the median of its
/// neighbouring pairs' ratios; rounds alternate which build goes first. Fresh processes per
/// round keep what one process's memory layout does to one build from deciding the verdict.
package struct PairedRunner {
  let base: CellRunner
  let candidate: CellRunner
  let rounds: Int
  let repetitions: Int
  package let threshold: Double
  package let confidence: Double

  /// About how long one repetition in a round takes, in seconds: a fraction of what a sweep's
  /// repetition does (``CellExecution/repetitionTarget``), since a shorter repetition lies
  /// closer in time to its partner, on a machine whose speed moves within tens of milliseconds.
  static let repetitionSeconds = 0.005

  /// One cell measured on both builds.
  package struct Entry {
    package var cell: Cell
    /// Every measured repetition's nanoseconds per operation, per build.
    package var baseSamples: [Double] = []
    package var candidateSamples: [Double] = []
    /// One ratio candidate / base per round: the median over its pairs of repetitions.
    package var roundRatios: [Double] = []
    package var estimate: RatioEstimate?
    /// What the paired rounds conclude for this cell.
    package var verdict: Comparison.Verdict = .notComparable
    package var reason = ""
  }

  /// Measures `cell` with both builds, round after round, and judges the ratios.
  ///
  ///  - Complexity: `rounds` pairs of cell processes.
  package func run(_ cell: Cell) -> Entry {
    var entry = Entry(cell: cell)
    // The base calibrates; every process then does the same work.
    let scale: Double
    switch base.runProcess(cell, repetitions: 1, budget: base.budget, scale: nil) {
    case .finished(let outcome) where outcome.problem == nil && !outcome.capped:
      guard let calibrated = outcome.scale else {
        entry.reason = "the base build prints no work scale: it predates `ab`"
        return entry
      }
      // The base calibrated its work to a sweep's repetition; a round's is shorter.
      scale = min(1, calibrated * Self.repetitionSeconds / CellExecution.repetitionTarget)
    case .finished(let outcome):
      entry.reason = "not measured in the base: " + (outcome.problem ?? "capped")
      return entry
    case .timedOut:
      entry.reason = "not measured in the base: capped"
      return entry
    case .incompatible(let reason):
      entry.reason =
        "the two builds cannot be paired (\(reason)): build both sides from this version or later"
      return entry
    case .failed(let reason), .notApplicable(let reason):
      entry.reason = "not measured in the base: \(reason)"
      return entry
    }
    if let failure = measureRounds(&entry, scale: scale) { return failure }
    entry = judge(entry)
    guard entry.verdict == .regression || entry.verdict == .improvement else { return entry }
    // A verdict must survive a second measurement: a burst of load that happened to hit one
    // build's turns more than the other's does not come back on cue, a real change does.
    // The second batch of rounds must by itself move the same way past the threshold, and
    // the interval over both batches must still clear it.
    let first = entry.verdict
    var second = Entry(cell: cell)
    if let failure = measureRounds(&second, scale: scale) { return failure }
    entry.baseSamples += second.baseSamples
    entry.candidateSamples += second.candidateSamples
    entry.roundRatios += second.roundRatios
    entry = judge(entry)
    let repeated = RatioEstimate(pairedRatios: second.roundRatios, confidence: confidence)
    let confirmed =
      repeated.map {
        first == .regression ? $0.ratio > 1 + threshold : $0.ratio < 1 - threshold
      } ?? false
    if entry.verdict != first || !confirmed {
      entry.verdict = .inconclusive
      entry.reason = "not confirmed by a second measurement"
    }
    return entry
  }

  /// Runs `rounds` rounds into `entry`'s samples; the entry to report if a process failed.
  private func measureRounds(_ entry: inout Entry, scale: Double) -> Entry? {
    for round in 0..<rounds {
      let baseFirst = round.isMultiple(of: 2)
      let pair: (base: CellRunner.Result, candidate: CellRunner.Result)
      do {
        pair = try measureInTurns(entry.cell, scale: scale, baseFirst: baseFirst, cpu: round)
      } catch {
        entry.reason = "could not set up the turns: \(error)"
        return entry
      }
      guard case .finished(let baseOutcome) = pair.base, baseOutcome.problem == nil,
        !baseOutcome.capped, !baseOutcome.nanosecondsPerOperation.isEmpty
      else { return judgeFailure(entry, pair.base, isCandidate: false) }
      guard case .finished(let candidateOutcome) = pair.candidate,
        candidateOutcome.problem == nil, !candidateOutcome.capped,
        !candidateOutcome.nanosecondsPerOperation.isEmpty
      else { return judgeFailure(entry, pair.candidate, isCandidate: true) }
      let baseTimes = baseOutcome.nanosecondsPerOperation
      let candidateTimes = candidateOutcome.nanosecondsPerOperation
      entry.baseSamples += baseTimes
      entry.candidateSamples += candidateTimes
      let ratios = zip(baseTimes, candidateTimes).map { $1 / $0 }
      if let median = CellResult.Quantiles(ratios)?.median { entry.roundRatios.append(median) }
    }
    return nil
  }

  /// Runs one process of each build at once, taking turns on the `cpu`-th processor (counting
  /// round the ones this process may use), and waits for both.
  ///
  /// Both on one processor: on a virtual machine one virtual processor can run a delivery
  /// 50% slower than the other for seconds at a time (measured here: 42 against 65 ns per
  /// linked-list delivery), so two processes on two processors, even taking turns, see two
  /// machines. Rounds go round the processors, so every one of them is in the verdict.
  private func measureInTurns(
    _ cell: Cell, scale: Double, baseFirst: Bool, cpu: Int
  )
    throws -> (
      base: CellRunner.Result, candidate: CellRunner.Result
    )
  {
    let pipes = try TurnPipes()
    defer { pipes.remove() }
    // Each process may wait for its partner's repetitions as long as it runs its own.
    func start(
      _ runner: CellRunner, takeFrom: String, passTo: String
    )
      -> Swift.Result<
        RunningCell, CellRunner.StartFailure
      >
    {
      runner.start(
        cell, repetitions: repetitions, budget: runner.budget * 2, scale: scale,
        turns: (takeFrom, passTo), cpu: cpu)
    }
    let baseRun = start(base, takeFrom: pipes.toBase, passTo: pipes.toCandidate)
    let candidateRun = start(candidate, takeFrom: pipes.toCandidate, passTo: pipes.toBase)
    // Both processes are waited for whatever happens, so that none outlives the round.
    let firstTurn = Swift.Result { try pipes.giveFirstTurn(toBase: baseFirst) }
    let finish = { (run: Swift.Result<RunningCell, CellRunner.StartFailure>) in
      switch run {
      case .success(let running): return running.finish()
      case .failure(let failure): return failure.result
      }
    }
    let results = (base: finish(baseRun), candidate: finish(candidateRun))
    try firstTurn.get()
    return results
  }

  private func judgeFailure(_ entry: Entry, _ result: CellRunner.Result, isCandidate: Bool) -> Entry
  {
    var entry = entry
    let what: String
    var capped = false
    switch result {
    case .finished(let outcome) where outcome.problem != nil: what = outcome.problem!
    case .finished, .timedOut:
      what = "ran out of its time budget"
      capped = true
    case .failed(let reason), .incompatible(let reason), .notApplicable(let reason):
      what = reason
    }
    if isCandidate {
      entry.verdict = capped ? .capped : .regression
      entry.reason = "the candidate \(what)"
    } else {
      entry.reason = "the base \(what)"
    }
    return entry
  }

  private func judge(_ entry: Entry) -> Entry {
    var entry = entry
    guard let estimate = RatioEstimate(pairedRatios: entry.roundRatios, confidence: confidence)
    else {
      entry.reason = "too few rounds for a \(csvNumber(confidence * 100))% interval"
      return entry
    }
    entry.estimate = estimate
    entry.verdict = Self.verdict(estimate, threshold: threshold)
    if entry.verdict == .inconclusive { entry.reason = "the interval reaches past the threshold" }
    return entry
  }

  /// Regression when the whole interval lies above 1 + `threshold`, improvement when below
  /// 1 - `threshold`, unchanged when within both, inconclusive otherwise.
  static func verdict(_ estimate: RatioEstimate, threshold: Double) -> Comparison.Verdict {
    if estimate.lower > 1 + threshold { return .regression }
    if estimate.upper < 1 - threshold { return .improvement }
    if estimate.lower >= 1 - threshold && estimate.upper <= 1 + threshold { return .unchanged }
    return .inconclusive
  }

  /// Runs `base` and `candidate` side by side, `rounds` times.
  package init(
    base: CellRunner, candidate: CellRunner, rounds: Int, repetitions: Int, threshold: Double,
    confidence: Double
  ) {
    self.base = base
    self.candidate = candidate
    self.rounds = rounds
    self.repetitions = repetitions
    self.threshold = threshold
    self.confidence = confidence
  }
}
