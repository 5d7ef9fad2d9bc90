import Foundation
import ObservationReports
import ObservationWorkloads

/// Runs one cell in fresh processes and waits for them, each at most a hard time limit.
///
/// A cell's repetitions are spread over several processes: between two processes of the same
/// build the same cell can differ by more than half (memory layout, which core, what the other
/// core does), and only samples from several processes show that noise to `compare`.
package struct CellRunner {
  let executable: URL
  let jemallocPath: String?
  let repetitions: (Int) -> Int
  let budget: Double
  let seed: UInt64
  /// Processes per cell of the backend called by the argument.
  let processes: (String) -> Int
  /// Runs every process under callgrind, with a fixed amount of work, when set.
  package var instructionCounter: InstructionCounter? = nil
  /// The work of every repetition when instructions are counted (see ``WorkScale``).
  var instructionScale = 1.0 / 16

  /// How a cell's processes ended.
  package enum Result {
    case finished(CellOutcome)
    case timedOut
    case failed(String)
    /// The executable reads cell requests of another version: it is another build.
    case incompatible(String)
    /// Not run: the workload does not apply to the row, for the reason given
    /// (``MeasuredBackend/reasonNotMeasured(on:)``).
    case notApplicable(String)

    /// Why the cell has no outcome, when it failed or was refused.
    var failure: String? {
      switch self {
      case .failed(let reason), .incompatible(let reason), .notApplicable(let reason): reason
      case .finished, .timedOut: nil
      }
    }
  }

  /// How many processes, and repetitions in each, a cell uses. Counting instructions, each
  /// process runs one repetition: it is repeatable, and more processes only measure the spread
  /// of a backend that is not.
  func layout(_ cell: Cell) -> (processes: Int, repetitions: Int) {
    let processes = processes(cell.backend)
    if instructionCounter != nil { return (max(1, processes), 1) }
    let count = max(1, min(processes, repetitions(cell.n)))
    return (count, max(1, Int((Double(repetitions(cell.n)) / Double(count)).rounded(.up))))
  }

  /// Repetitions a cell runs in all, warm-ups included (none at ``CellPolicy/largeSize``
  /// or more).
  func totalRepetitions(_ cell: Cell) -> Int {
    let (count, perProcess) = layout(cell)
    return count * (perProcess + (CellPolicy.skipsWarmUp(n: cell.n) ? 0 : 1))
  }

  /// Runs the cell's processes one after another. The budget holds for the whole cell: once it
  /// is spent, no further process starts, and a cell left with fewer than three repetitions
  /// (or fewer than it asked for, if that is less) is capped.
  func run(_ cell: Cell) -> Result {
    var processes = CellProcesses(cell, runner: self)
    while processes.runNext(with: self) {}
    return processes.result
  }

  /// Checks, before a sweep, that a cell process started with `jemallocPath` preloaded runs on
  /// jemalloc; a library that is not jemalloc, or does not load, is an error here rather than
  /// a failure in every jemalloc cell.
  package func checkJemalloc() throws {
    guard let jemallocPath, let reason = probe(.jemalloc).failure else { return }
    throw HarnessError("jemalloc at '\(jemallocPath)' cannot be used: \(reason)")
  }

  /// Why the executable cannot measure a cell of this build, if it cannot: one small cell of
  /// the C reference loop with the system allocator. Run before pairing two builds, so that a
  /// build that reads other requests is named as such, before any other check.
  package func checkExecutable() -> String? { probe(.system).failure }

  /// One process of the smallest cell of the C reference loop under `allocator`.
  private func probe(_ allocator: Allocator) -> Result {
    let cell = Cell(
      allocator: allocator, backend: MeasuredBackend.referenceC.name, workload: .notify, n: 1)
    return runProcess(cell, repetitions: 1, budget: 1, scale: 1.0 / 16)
  }

  /// Runs one process of the cell: `repetitions` after a warm-up, each doing `scale` of the
  /// full work, or calibrated to about 20 ms when `scale` is `nil`.
  func runProcess(
    _ cell: Cell, repetitions: Int, budget: Double, scale: Double?
  ) -> Result {
    switch start(cell, repetitions: repetitions, budget: budget, scale: scale) {
    case .success(let running): return running.finish()
    case .failure(let failure): return failure.result
    }
  }

  /// A reason a cell process could not start.
  struct StartFailure: Error {
    let result: Result
  }

  /// Starts one process of the cell and returns without waiting for it; with `turns`, it
  /// measures in turn with another process (see ``TurnTaking``), on the `cpu`-th processor this
  /// process may use. The cell process is killed by the kernel if this one dies.
  func start(
    _ cell: Cell, repetitions: Int, budget: Double, scale: Double?,
    turns: (takeFrom: String, passTo: String)? = nil, cpu: Int? = nil
  ) -> Swift.Result<RunningCell, StartFailure> {
    let process = Process()
    var request = CellRequest(
      cell, repetitions: repetitions, budget: budget, seed: seed, scale: scale,
      metric: instructionCounter == nil ? .time : .instructions)
    request.parent = getpid()
    request.cpu = cpu
    request.turns = turns.map { CellRequest.Turns(input: $0.takeFrom, output: $0.passTo) }
    let arguments = [CellRequest.subcommand] + request.arguments
    var countsFile: URL?
    var environment = ProcessInfo.processInfo.environment
    if let instructionCounter {
      let (launcher, launchArguments, output) = instructionCounter.launch(arguments)
      process.executableURL = launcher
      process.arguments = launchArguments
      countsFile = output
      // The same hash seed in every process, so that set and dictionary layouts, and the
      // instructions spent on them, do not change from one run to the next.
      environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
    } else {
      process.executableURL = executable
      process.arguments = arguments
    }
    environment["LD_PRELOAD"] = nil
    if cell.allocator == .jemalloc, let jemallocPath { environment["LD_PRELOAD"] = jemallocPath }
    process.environment = environment
    let running = RunningCell(
      process: process, countsFile: countsFile,
      deadline: .now() + CellPolicy.hardLimit(budget: budget),
      preloadedJemalloc: cell.allocator == .jemalloc ? jemallocPath : nil)
    process.standardOutput = running.output
    process.standardError = running.errors
    process.terminationHandler = { [done = running.done] _ in done.signal() }
    do {
      try process.run()
    } catch {
      running.closePipes()
      return .failure(
        StartFailure(
          result: .failed("could not start a cell process: \(error.localizedDescription)")))
    }
    // Read while the child runs so a full pipe cannot block it.
    DispatchQueue.global().async(group: running.readers) { [collected = running.collected] in
      collected.output = running.output.fileHandleForReading.readDataToEndOfFile()
    }
    DispatchQueue.global().async(group: running.readers) { [collected = running.collected] in
      collected.errors = running.errors.fileHandleForReading.readDataToEndOfFile()
    }
    return .success(running)
  }

  /// A runner that launches `executable` for each cell.
  package init(
    executable: URL, jemallocPath: String?, repetitions: @escaping (Int) -> Int, budget: Double,
    seed: UInt64, processes: @escaping (String) -> Int,
    instructionCounter: InstructionCounter? = nil, instructionScale: Double = 1.0 / 16
  ) {
    self.executable = executable
    self.jemallocPath = jemallocPath
    self.repetitions = repetitions
    self.budget = budget
    self.seed = seed
    self.processes = processes
    self.instructionCounter = instructionCounter
    self.instructionScale = instructionScale
  }
}
