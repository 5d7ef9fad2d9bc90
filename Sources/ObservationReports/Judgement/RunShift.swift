import Foundation

/// How two timed runs differ: the machine's speed, the noise between them, and how far each
/// backend moved as a whole.
///
/// Every cell's change is taken as a log ratio of its fastest repetitions, candidate over base
/// (``Comparison/comparedCost(_:)``). Three things move it:
/// - **the machine**: the reference rows (``ReferenceRow``, plain loops measured
///   in the same runs) move with the machine's speed alone; their median change is taken out
///   of every cell;
/// - **a busy moment**: a cell measured while something else ran is slower, whatever its
///   code; a short one moves a few cells, and a backend's median change over all its cells
///   does not move with it, while a long one shows as scatter between the cells;
/// - **the code**: a change in a backend moves most of its cells, so its median moves.
///
/// So a backend has moved when its median change (the machine taken out) stands beyond the
/// noise of this very comparison by ``zLimit`` deviations, either
/// - against the other backends (one backend moved, the rest did not), with the noise of its
///   median, the spread of the other backends' medians, and an eighth of the cells' scatter,
///   or
/// - against the reference rows, together with the others (every backend moved), with the
///   noise of the reference rows and of the backends' common median, and a quarter of the
///   cells' scatter: a busy machine slows code that allocates and touches memory more than a
///   plain loop. (Half the scatter, when cells were compared by their medians; by their
///   fastest repetitions, the backends' common move against the reference rows stayed within
///   5.1% in 17 pairs of runs of one build, quiet, beside a build, or one of each, while half
///   their scatter reached 7.9%.)
///
/// When the cells of the two runs scatter by more than ``busyScatter`` (one robust deviation
/// of their log ratios), nothing is told from noise: every backend is `inconclusive`. The
/// limits were set from pairs of runs of one build on a two-core machine, quiet and beside
/// a build; the README has the table.
package struct RunShift {
  /// One backend's move between the runs.
  package struct BackendMove {
    package var backend: String
    /// Cells of the backend measured on both sides.
    package var cells: Int
    /// The median log ratio of its cells, with the reference rows' median taken out.
    package var logChange: Double
    /// One deviation of `logChange` against the other backends; `nil` with fewer than
    /// ``minimumBackends`` backends.
    var relativeNoise: Double?
    /// How many deviations `logChange` stands from the backends' common median.
    package var relativeDeviations: Double?
    package var verdict: Comparison.Verdict
    package var reason: String

    /// The change as a fraction (0.3 is 30% slower).
    package var change: Double { exp(logChange) - 1 }
  }

  /// Deviations beyond which a move is told from noise.
  static let zLimit = 4.0
  /// One robust deviation of the cells' log ratios past which the runs are too noisy to tell
  /// anything from (about 28%).
  static let busyScatter = 0.25
  /// The reference rows' median change (log) beyond which the machines' speeds differ too
  /// much for the runs to be compared: a factor of 2.
  static let incomparableMachineShift = log(2.0)
  /// A backend with fewer cells in common has no median worth judging: in two quick runs of
  /// one build, 4 of the 6 nested cells of `combine-published-flatmap` moved by 40 to 50%
  /// together, and in two default runs the 10 cells of `combine-published-switchtolatest`
  /// moved by 81% as a whole, each past 4 deviations of a median of so few cells.
  static let minimumCells = 12
  /// Fewer backends give no spread of the backends' medians to judge one against.
  static let minimumBackends = 4

  /// The reference rows' median change (log); `nil` when no reference row is in both runs.
  package var machineLogShift: Double?
  /// One deviation of `machineLogShift`.
  var machineNoise = 0.0
  /// One robust deviation of every backend cell's log ratio around its backend's median.
  package var scatter = 0.0
  /// The backends' common median change (log), against the reference rows.
  var commonLogChange = 0.0
  /// How many deviations `commonLogChange` stands from the reference rows; `nil` without
  /// reference rows.
  var commonDeviations: Double?
  /// Every backend with enough cells, in name order.
  package var moves: [BackendMove] = []

  /// Whether the cells scatter too much for any verdict.
  var isBusy: Bool { scatter > Self.busyScatter }

  /// The shifts of `entries` (cells measured on both sides, their ratio set), `references`
  /// naming the reference rows, judged at `threshold`.
  ///
  /// - Complexity: O(*c* log *c*) for *c* cells.
  init(entries: [Comparison.Entry], references: Set<String>, threshold: Double) {
    let limit = log(1 + threshold)
    var byBackend: [String: [Double]] = [:]
    var referenceLogs: [Double] = []
    for entry in entries {
      guard let ratio = entry.ratio else { continue }
      if references.contains(entry.base.cell.backend) {
        referenceLogs.append(log(ratio))
      } else {
        byBackend[entry.base.cell.backend, default: []].append(log(ratio))
      }
    }
    let shift = Self.median(referenceLogs)
    machineLogShift = shift
    if shift != nil {
      // The reference rows' own disagreement, and at least 1%. (The spread of their
      // repetitions was added here when cells were compared by their medians; their fastest
      // repetitions are what is compared now, and a busy moment does not reach them.)
      let deviation = max(Self.robustDeviation(referenceLogs), 0.01)
      machineNoise = 1.2533 * deviation / Double(referenceLogs.count).squareRoot()
    }
    // The scatter is taken around each backend's own median: a backend that moved as a whole
    // is a change, not scatter (one backend 30% slower in a copy of a quiet run raised the
    // scatter around the common median from 17% to 30%, past the limit for a busy machine).
    let residuals = byBackend.values.flatMap { logs in
      let center = Self.median(logs)!
      return logs.map { $0 - center }
    }
    scatter = Self.robustDeviation(residuals)
    let judged = byBackend.filter { $0.value.count >= Self.minimumCells }.sorted { $0.key < $1.key }
    let changes = judged.map { Self.median($0.value)! - (shift ?? 0) }
    let noises = judged.map {
      1.2533 * max(Self.robustDeviation($0.value), scatter / 2)
        / Double($0.value.count).squareRoot()
    }
    guard !judged.isEmpty else { return }
    let common = Self.median(changes)!
    commonLogChange = common
    let spread: Double? =
      judged.count >= Self.minimumBackends ? max(Self.robustDeviation(changes), 0.01) : nil
    if shift != nil {
      let ofCommon =
        1.2533 * max(spread ?? 0, Self.median(noises)!) / Double(judged.count).squareRoot()
      let noise = (machineNoise * machineNoise + ofCommon * ofCommon + scatter * scatter / 16)
        .squareRoot()
      commonDeviations = common / noise
    }
    for (index, (backend, logs)) in judged.enumerated() {
      var move = BackendMove(
        backend: backend, cells: logs.count, logChange: changes[index], verdict: .unchanged,
        reason: "")
      if let spread {
        let noise = (noises[index] * noises[index] + spread * spread + scatter * scatter / 64)
          .squareRoot()
        move.relativeNoise = noise
        move.relativeDeviations = (changes[index] - common) / noise
      }
      judge(&move, limit: limit)
      moves.append(move)
    }
  }

  /// Sets `move`'s verdict and reason.
  private func judge(_ move: inout BackendMove, limit: Double) {
    let change = move.logChange
    guard abs(change) > limit else { return }
    let upward = change > 0
    let direction: Double = upward ? 1 : -1
    if isBusy {
      move.verdict = .inconclusive
      move.reason = String(
        format: "the runs' cells scatter by %.0f%%, past the %.0f%% a comparison of two runs"
          + " can see through: the machine was busy", percent(scatter), percent(Self.busyScatter))
      return
    }
    let alone = (move.relativeDeviations.map { $0 * direction } ?? 0) > Self.zLimit
    let withTheRest =
      (commonDeviations.map { $0 * direction } ?? 0) > Self.zLimit
      && (move.relativeDeviations.map { $0 * direction } ?? 0) > -Self.zLimit
    if alone || withTheRest {
      move.verdict = upward ? .regression : .improvement
      return
    }
    move.verdict = .inconclusive
    if machineLogShift == nil && move.relativeDeviations == nil {
      move.reason =
        "no reference rows and fewer than \(Self.minimumBackends) backends in common:"
        + " the machine's speed is unknown"
    } else if let noise = move.relativeNoise {
      move.reason =
        "its backend moved \(readablePercent(move.change * 100, signed: true)) as a whole, within"
        + " this comparison's noise (\(readablePercent(percent(Self.zLimit * noise)))"
        + " at \(csvNumber(Self.zLimit)) deviations)"
      if machineLogShift == nil {
        move.reason += "; without reference rows, every backend moving at once is not seen"
      }
    } else {
      move.reason =
        "its backend moved \(readablePercent(move.change * 100, signed: true)) as a whole,"
        + " within the noise of the reference rows and the cells"
    }
  }

  /// The comparison's own account of the runs, for its summary: the machine's speed, the
  /// scatter, the backends' common move, and each backend that moved.
  var summary: String {
    var lines: [String] = []
    if let machine = machineLogShift {
      lines.append(
        "Between the runs: the reference rows (the machine's speed) moved"
          + " \(readablePercent(percent(machine), signed: true)), taken out of every cell; the"
          + " cells scatter by \(readablePercent(percent(scatter))) around their backend's"
          + " median; the backends together moved"
          + " \(readablePercent(percent(commonLogChange), signed: true))"
          + (commonDeviations.map { " (\(Self.deviations($0)) deviations)" } ?? "") + ".")
    } else {
      lines.append(
        "Between the runs: no reference row in common, so the machine's speed is unknown and"
          + " every backend moving at once cannot be seen; the cells scatter by"
          + " \(readablePercent(percent(scatter))) (one robust deviation).")
    }
    if isBusy {
      lines.append(
        String(
          format: "That scatter is past the %.0f%% a comparison of two runs can see through:"
            + " the machine was busy, and no backend is judged.", percent(Self.busyScatter)))
    }
    let moved = moves.filter { $0.verdict == .regression || $0.verdict == .improvement }
    if !moved.isEmpty {
      lines.append(
        "Moved as a whole: "
          + moved.map { move in
            "\(move.backend) \(readablePercent(move.change * 100, signed: true))"
              + (move.relativeDeviations.map {
                " (\(Self.deviations($0)) deviations from the other backends)"
              } ?? "")
          }.joined(separator: ", ") + ".")
    }
    return lines.joined(separator: "\n")
  }

  /// `log` deviation as a percentage change.
  private func percent(_ logValue: Double) -> Double { (exp(logValue) - 1) * 100 }

  /// A number of deviations with one decimal, or in scientific notation past a million: a
  /// report of extreme times must not print hundreds of digits.
  private static func deviations(_ value: Double) -> String {
    String(format: value.isFinite && abs(value) >= 1e6 ? "%.2e" : "%.1f", value)
  }

  static func median(_ values: [Double]) -> Double? {
    CellResult.Quantiles(values)?.median
  }

  /// 1.4826 times the median absolute deviation from the median: one standard deviation
  /// for normal data, robust to outliers. 0 for no values.
  static func robustDeviation(_ values: [Double]) -> Double {
    guard let center = median(values) else { return 0 }
    return 1.4826 * (median(values.map { abs($0 - center) }) ?? 0)
  }
}
