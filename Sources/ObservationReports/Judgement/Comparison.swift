import Foundation

/// The cell-by-cell comparison of two reports of one metric.
///
/// Instruction counts are repeatable: a cell regresses when its count grew by more than the
/// threshold and by more than the spread its processes showed (zero for a synchronous backend).
///
/// Wall-clock times of two separate runs differ by more than their own repetitions show: on a
/// shared machine a single cell can measure twice as slow in one run as in the next. A cell's
/// time here is its fastest repetition (`comparedCost(_:)`), and a time verdict is made for a backend as a whole, from what each run knows about itself
/// (see `RunShift`): the reference rows give the machine's speed in each run, and a
/// backend has moved when the median change of its cells, that speed taken out, stands
/// beyond the noise of this comparison, alone or with every other backend. A cell of a
/// backend that moved regresses (or improves) when it moved past the threshold itself; a
/// cell past the threshold whose backend did not move is `inconclusive`: a cell moving
/// alone is weather. `ab` (paired, interleaved runs) or `--metric instructions` can tell.
///
/// Reports of different builds (`release` against `release-static-stdlib` or `debug`) are
/// refused for either metric: the build moves every Swift backend's cost. Reports of different
/// machines (host, CPU or core count) are refused for time unless
/// allowed, and named for instructions; reports whose reference rows moved by a factor of 2
/// or more were measured at machine speeds too far apart, and are refused, naming them.
public struct Comparison {
  /// One cell present in both reports.
  public struct Entry {
    /// The cell's result in the base report.
    public var base: CellResult
    /// The cell's result in the candidate report.
    public var candidate: CellResult
    /// Candidate cost over base cost, if both were measured.
    public var ratio: Double?
    /// What the comparison concludes for this cell.
    public var verdict: Verdict
    /// Why a cell is inconclusive or not comparable.
    public var reason: String = ""

    /// The cell both results measure.
    public var cell: Cell { base.cell }

    /// The cell's name in reports and comparisons (``Cell/key``).
    public var key: String { base.cell.key }
  }

  /// What a comparison concludes for one cell.
  public enum Verdict: String, CaseIterable, Sendable {
    case regression, improvement, unchanged, inconclusive
    case notComparable = "not comparable"
    /// Measured in the base, capped in the candidate: slower than the budget, by how much
    /// unknown. Near the budget this flips with noise, so it is reported, not gated on.
    case capped = "capped in candidate"
  }

  package let metric: Metric
  package let threshold: Double
  /// Every cell present in both reports, in the base report's order.
  public var cells: [Entry] = []
  package var onlyInBase: [String] = []
  package var onlyInCandidate: [String] = []
  /// Time: the machine's speed, the noise and each backend's move between the runs.
  package var shift: RunShift?
  /// How the two reports' machines differ (host, CPU, cores), one entry each; empty for one
  /// machine.
  public var machineDifferences: [String] = []

  /// The cells called a regression: any one makes `compare` exit with status 2.
  ///
  ///  - Complexity: O(*c*) for *c* cells.
  public var regressions: [Entry] { cells.filter { $0.verdict == .regression } }

  /// Why two reports cannot be compared.
  public enum InputError: Error, CustomStringConvertible {
    case nothingInCommon(base: String, candidate: String)
    case mixed(String)
    /// Timed reports of different machines, not allowed.
    case otherMachine([String])
    /// The reference rows moved too far: the machines' speeds in the two runs differ.
    case machineSpeed(String)
    /// Reports of different builds (`release` and `release-static-stdlib`, or a debug build):
    /// every Swift backend's cost differs between them, in time and in instructions.
    case otherBuild(base: String, candidate: String)

    /// The reason, in one sentence.
    public var description: String {
      switch self {
      case .nothingInCommon(let base, let candidate):
        return "the reports share no cell (base: \(base); candidate: \(candidate)); compare"
          + " reports of the same allocator, backends, workloads and sizes"
      case .mixed(let problem): return problem
      case .otherMachine(let differences):
        return "the reports were measured on different machines ("
          + differences.joined(separator: "; ") + "): their times do not compare; measure"
          + " both on one machine, or allow other machines to compare them anyway"
      case .machineSpeed(let problem): return problem
      case .otherBuild(let base, let candidate):
        return "the reports were measured with different builds ('\(base)' in the base,"
          + " '\(candidate)' in the candidate): how the Swift runtime is linked, or whether the"
          + " code is optimized, moves every Swift backend's cost; measure both with one build,"
          + " or compare the two executables with `ab`"
      }
    }
  }

  /// Compares `candidate` with `base`.
  ///
  /// - Parameters:
  ///   - base: the base report's results.
  ///   - candidate: the candidate report's results.
  ///   - threshold: the smallest relative change that counts (0.05 is 5%).
  ///   - allowingOtherMachine: compare timed reports of different machines (host, CPU or
  ///     core count) instead of refusing them; the differences are in
  ///     ``machineDifferences`` either way.
  /// - Throws: ``InputError`` when no cell is in both, when the cells in both differ in
  ///   metric or schema, when the reports come from different builds, when timed reports
  ///   come from different machines (unless allowed), or when their reference rows moved by a
  ///   factor of 2 or more.
  /// - Complexity: O(*c* log *c*) for *c* cells.
  public init(
    base: [CellResult], candidate: [CellResult], threshold: Double,
    allowingOtherMachine: Bool = false
  ) throws {
    let bases = Dictionary(base.map { ($0.cell, $0) }, uniquingKeysWith: { first, _ in first })
    let candidates = Dictionary(
      candidate.map { ($0.cell, $0) }, uniquingKeysWith: { first, _ in first })
    let shared = base.filter { candidates[$0.cell] != nil }
    guard !shared.isEmpty else {
      throw InputError.nothingInCommon(
        base: Self.describe(base), candidate: Self.describe(candidate))
    }
    for row in shared {
      let other = candidates[row.cell]!
      if row.metric != other.metric {
        throw InputError.mixed(
          "cell \(row.cell.key) is measured in \(row.metric.rawValue) in the base and in"
            + " \(other.metric.rawValue) in the candidate; compare reports of one metric")
      }
      if !ReportSchema.measuresAlike(row.schema, other.schema) {
        throw InputError.mixed(
          "cell \(row.cell.key) comes from a schema \(row.schema) report in the base and a"
            + " schema \(other.schema) report in the candidate: they were measured by"
            + " different versions of the harness; measure both with one (or use `ab`)")
      }
    }
    metric = shared[0].metric
    self.threshold = threshold
    if base[0].environment.build != candidate[0].environment.build {
      throw InputError.otherBuild(
        base: base[0].environment.build, candidate: candidate[0].environment.build)
    }
    machineDifferences = Machine(base[0].environment).differences(
      toCandidate: Machine(candidate[0].environment))
    if metric == .time && !machineDifferences.isEmpty && !allowingOtherMachine {
      throw InputError.otherMachine(machineDifferences)
    }
    onlyInBase = base.filter { candidates[$0.cell] == nil }.map(\.cell.key)
    onlyInCandidate = candidate.filter { bases[$0.cell] == nil }.map(\.cell.key)
    cells = shared.map { Self.pair($0, candidates[$0.cell]!) }
    switch metric {
    case .instructions: judgeCounts()
    case .time: try judgeTimes()
    }
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
  package static func measured(_ result: CellResult) -> Bool {
    result.status.isMeasured && (comparedCost(result) ?? 0) > 0
  }

  /// The cost a comparison compares: the instruction count, or the fastest repetition's time.
  ///
  /// A shared machine only ever slows a repetition down, and in bursts: in two quick runs of
  /// one build beside other work, whole cells measured 1.6 to 1.8 times slower when two of
  /// their three processes met a burst, so the median moved whole backends by up to 27%. A
  /// timed sweep spreads each cell's processes over the run (see the harness's `Sweep`), so the fastest of
  /// them is the one least touched by what else ran: the same pairs' backends then moved by at
  /// most 4.5%.
  ///
  /// - Complexity: O(1).
  package static func comparedCost(_ result: CellResult) -> Double? {
    result.metric == .instructions ? result.instructionsPerOperation : result.nanoseconds?.min
  }

  /// ``comparedCost(_:)`` with its unit (`35.266 ns`, `344.6 instr`); empty if not measured.
  package static func comparedText(_ result: CellResult) -> String {
    result.text(ofCost: comparedCost(result))
  }

  /// The pair with its ratio, and the verdicts that need no noise model.
  private static func pair(_ base: CellResult, _ candidate: CellResult) -> Entry {
    var cell = Entry(base: base, candidate: candidate, ratio: nil, verdict: .notComparable)
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
    cell.ratio = comparedCost(candidate)! / comparedCost(base)!
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
        cells[index].reason =
          "within the spread of the processes' counts (\(readablePercent(spread * 100)))"
      }
    }
  }

  private mutating func judgeTimes() throws {
    let references = Set(cells.filter(\.base.isReference).map(\.base.cell.backend))
    let shift = RunShift(entries: cells, references: references, threshold: threshold)
    if let machine = shift.machineLogShift, abs(machine) >= RunShift.incomparableMachineShift {
      let moved = cells.filter { references.contains($0.base.cell.backend) && $0.ratio != nil }
        .map {
          "\($0.key) \(Self.comparedText($0.base)) -> \(Self.comparedText($0.candidate))"
            + " (\(readableRatio($0.ratio!)))"
        }
      throw InputError.machineSpeed(
        "the reference rows, which measure the machine itself, moved by a median factor of"
          + " \(readableCount(exp(machine))): the two runs' machine speeds differ too much for"
          + " their times to be compared (\(moved.joined(separator: "; ")))")
    }
    self.shift = shift
    let limit = Foundation.log(1 + threshold)
    let moves = Dictionary(uniqueKeysWithValues: shift.moves.map { ($0.backend, $0) })
    for index in cells.indices {
      guard let ratio = cells[index].ratio else { continue }
      let backend = cells[index].base.cell.backend
      let change = Foundation.log(ratio) - (shift.machineLogShift ?? 0)
      guard abs(change) > limit else { continue }
      if references.contains(backend) {
        cells[index].verdict = .inconclusive
        cells[index].reason = "a reference row: it measures the machine, not code"
        continue
      }
      guard let move = moves[backend] else {
        cells[index].verdict = .inconclusive
        cells[index].reason =
          "fewer than \(RunShift.minimumCells) cells of its backend in common: whether the"
          + " backend moved is unknown"
        continue
      }
      let sameDirection = (change > 0) == (move.logChange > 0)
      switch move.verdict {
      case .regression where sameDirection, .improvement where sameDirection:
        cells[index].verdict = move.verdict
      case .unchanged:
        cells[index].verdict = .inconclusive
        cells[index].reason =
          "its backend as a whole moved \(readablePercent(move.change * 100, signed: true)):"
          + " a cell moving alone is weather"
      default:
        cells[index].verdict = .inconclusive
        cells[index].reason =
          move.reason.isEmpty
          ? "its backend as a whole moved \(readablePercent(move.change * 100, signed: true)),"
            + " the other way"
          : move.reason
      }
    }
  }

  // MARK: - Output

  package func describe(_ result: CellResult) -> String {
    Self.measured(result) ? Self.comparedText(result) : result.status.name
  }

  package func change(_ cell: Entry) -> String {
    cell.ratio.map { readableChange(ofRatio: $0) } ?? "-"
  }

  /// Cells in report order, or only those whose verdict is not `unchanged`.
  package func shown(changesOnly: Bool) -> [Entry] {
    changesOnly ? cells.filter { $0.verdict != .unchanged } : cells
  }

  package var summary: String {
    let counts = Dictionary(grouping: cells, by: \.verdict).mapValues(\.count)
    let parts = Verdict.allCases.compactMap { verdict in
      counts[verdict].map { "\($0) \(verdict.rawValue)" }
    }.joined(separator: ", ")
    var text =
      "\(cells.count) \(metric.rawValue) cells compared at a \(csvNumber(threshold * 100))%"
      + " threshold: \(parts)"
      + (onlyInBase.isEmpty ? "" : "; \(onlyInBase.count) only in the base")
      + (onlyInCandidate.isEmpty ? "" : "; \(onlyInCandidate.count) only in the candidate")
      + Self.concludingSentence(
        regressions: regressions.count, inconclusive: counts[.inconclusive] ?? 0)
    if !machineDifferences.isEmpty {
      text +=
        "\nThe runs are of different machines: " + machineDifferences.joined(separator: "; ")
        + "."
    }
    if let shift {
      text += "\nTimes compared are each cell's fastest repetition.\n" + shift.summary
    }
    if counts[.inconclusive] != nil {
      text +=
        "\nInconclusive cells changed by more than the threshold but not by more than this"
        + " comparison can tell from noise: measure them with `ab` (both builds, interleaved)"
        + " or by counting instructions."
    }
    return text
  }
}
