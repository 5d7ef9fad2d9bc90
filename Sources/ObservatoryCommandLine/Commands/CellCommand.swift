import ArgumentParser
import CInstructionCounting
import CProcessControl
import Foundation
import ObservationHarness
import ObservationWorkloads

/// `observatory cell`: measures one cell in this process and prints the outcome as JSON. The
/// sweep runs every cell this way, each in a fresh process, because heap history from earlier
/// cells skews later ones.
struct CellCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cell", abstract: "Measure one cell (used by `run`; one process per cell).",
    shouldDisplay: false)

  @Option var backend: String
  @Option var workload: Workload
  @Option var pattern: WorkloadPattern = .none
  @Option var n: Int
  @Option var depth: Int = 0
  @Option var repetitions: Int
  @Option(help: "Seconds after which no new repetition starts.") var budget: Double
  @Option var seed: UInt64 = 0x5EED
  @Option(help: "Fraction of the full work every repetition does; default: calibrated.")
  var scale: Double?
  @Option(help: "time, or instructions (run under callgrind with --instr-atstart=no).")
  var metric: Metric = .time
  @Option(
    help: ArgumentHelp(
      "Two named pipes, IN:OUT: take each repetition's turn from IN, pass it on to OUT (used by"
        + " `ab`).", visibility: .hidden),
    transform: { try TurnPipes(parsing: $0) })
  var turns: TurnPipes?
  @Option(
    help: ArgumentHelp(
      "Run on the INDEX-th processor this process may use, counting from 0 (used by `ab`).",
      visibility: .hidden))
  var cpu: Int?
  @Option(
    help: ArgumentHelp(
      "The process id of the sweep that started this cell: end when it ends.",
      visibility: .hidden))
  var parent: Int32?

  func validate() throws {
    guard CellSelection.sizeRange.contains(n) else {
      throw ValidationError(
        "--n must be an integer from 1 to \(CellSelection.sizeRange.upperBound), got \(n)")
    }
    guard (0...CellSelection.maximumDepth).contains(depth) else {
      throw ValidationError(
        "--depth must be an integer from 0 to \(CellSelection.maximumDepth), got \(depth)")
    }
    guard (1...10_000).contains(repetitions) else {
      throw ValidationError("--repetitions must be an integer from 1 to 10000, got \(repetitions)")
    }
    guard budget.isFinite && budget > 0 && budget <= 86_400 else {
      throw ValidationError("--budget must be a number of seconds in (0, 86400], got \(budget)")
    }
    if let scale, !(scale > 0 && scale <= 1) {
      throw ValidationError("--scale must be a fraction in (0, 1], got \(scale)")
    }
    if let cpu, cpu < 0 { throw ValidationError("--cpu must be 0 or more, got \(cpu)") }
    if workload.hasDepth && depth < pattern.minimumDepth {
      throw ValidationError(
        "--depth \(depth) is too shallow for \(workload.rawValue) \(pattern.rawValue)")
    }
    if metric == .instructions && observatory_running_on_valgrind() == 0 {
      throw ValidationError(
        "--metric instructions counts only under valgrind --tool=callgrind"
          + (observatory_callgrind_available() == 0
            ? ", and this build has no callgrind client requests (install valgrind and rebuild)"
            : "; run through `observatory run --metric instructions`"))
    }
  }

  func run() throws {
    if let parent, observatory_die_with_parent(parent) != 0 {
      // The sweep is gone already (or the request failed): measure nothing for nobody.
      throw ExitCode(1)
    }
    if let cpu, observatory_pin_to_allowed_cpu(Int32(truncatingIfNeeded: cpu)) < 0 {
      throw ValidationError("--cpu \(cpu): \(String(cString: strerror(errno)))")
    }
    let turnTaking = try turns.map { try TurnTaking(takingFrom: $0.input, passingTo: $0.output) }
    // A heap that argument parsing never leaves, when CI's check that counted cells do not
    // depend on their heap's history asks for it; nothing otherwise.
    let churn = HeapChurn.fromEnvironment()
    defer { withExtendedLifetime(churn) {} }
    guard
      let outcome = CellExecution.run(
        backend: backend, among: ObservatoryTool.backends + MeasuredBackend.references,
        workload: workload, pattern: pattern, n: n, depth: depth,
        repetitions: repetitions, budget: budget, seed: seed, scale: scale.map(WorkScale.init),
        countsInstructions: metric == .instructions, turns: turnTaking)
    else {
      throw ValidationError("unknown backend '\(backend)'")
    }
    let data = try JSONEncoder().encode(outcome)
    try StandardOutput.write(String(decoding: data, as: UTF8.self))
  }
}

extension CellCommand {
  /// The two named pipes of `--turns IN:OUT`.
  struct TurnPipes {
    /// The pipe a turn is taken from.
    var input: String
    /// The pipe a turn is passed on to.
    var output: String

    /// Parses `IN:OUT`.
    ///
    /// - Throws: a `ValidationError` unless `text` is two paths separated by one colon.
    init(parsing text: String) throws {
      let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
      guard parts.count == 2 else { throw ValidationError("must be two paths, IN:OUT") }
      (input, output) = (parts[0], parts[1])
    }
  }
}
