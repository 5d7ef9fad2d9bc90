import CInstructionCounting
import ObservationCore
import ObservationReports
import ObservationWorkloads

/// Runs one cell in this process: warm-up, then repetitions until done or out of time.
package enum CellExecution {
  /// Runs the cell `request` names, of the row called `request.backend` among `rows` (the rows
  /// this process knows); `nil` if no row has that name.
  ///
  /// The request's workload, pattern, `n`, depth and threads make the cell (a row that does not
  /// declare `threadSafe` is not run on a contended workload: the outcome says why); it runs
  /// at most `repetitions` measured repetitions after the warm-up, none started after `budget`
  /// seconds, each doing `scale` of the full work (`nil` calibrates it from the warm-up's time,
  /// see `repeatMeasuring`). With the `instructions` metric, callgrind's client requests
  /// bracket the measured repetitions (not the warm-up), so that a process run under
  /// `valgrind --tool=callgrind --instr-atstart=no` counts exactly their timed regions, and the
  /// whole cell runs on a thread of its own, whose heap nothing before the cell has used
  /// (`MeasuringThread`). With `turns`, every repetition takes and passes a turn (`ab`). The
  /// process's own settings (`parent`, `cpu`) are ``CellChild``'s.
  package static func run(
    _ request: CellRequest, among rows: [MeasuredBackend], turns: TurnTaking? = nil
  ) -> CellOutcome? {
    let workload = request.workload
    let countsInstructions = request.metric == .instructions
    let scale = request.scale.map(WorkScale.init)
    guard let row = rows.row(named: request.backend) else { return nil }
    if let reason = row.reasonNotMeasured(on: workload) {
      var outcome = CellOutcome()
      outcome.problem = reason
      return outcome
    }
    func measure() -> CellOutcome {
      run(
        row,
        workloadCase: WorkloadCase(
          workload, pattern: request.pattern, n: request.n, depth: request.depth,
          seed: request.seed, threads: request.threads),
        repetitions: request.repetitions, budget: request.budget, scale: scale,
        countsInstructions: countsInstructions, turns: turns)
    }
    // Timed cells stay on the main thread: a clock's noise between processes is far larger
    // than what the heap's history adds, and their reports stay comparable with earlier ones.
    guard countsInstructions else { return measure() }
    guard let outcome = MeasuringThread.run(measure) else {
      var outcome = CellOutcome()
      outcome.problem = "no thread could be started to count the cell on"
      return outcome
    }
    return outcome
  }

  /// Runs the cell of `row` on the calling thread.
  static func run(
    _ row: MeasuredBackend, workloadCase: WorkloadCase, repetitions: Int, budget: Double,
    scale: WorkScale?, countsInstructions: Bool, turns: TurnTaking?
  ) -> CellOutcome {
    var probe = MemoryProbe()
    let counter = InstructionRegion()
    if countsInstructions {
      probe.regionWillStart = { counter.regionWillStart() }
      probe.regionDidEnd = { counter.regionDidEnd() }
    }
    let measure = row.measurement(of: workloadCase, probe: probe)
    var outcome = repeatMeasuring(
      measure, repetitions: repetitions, budget: budget, memory: probe.isAvailable,
      skipWarmUp: CellPolicy.skipsWarmUp(n: workloadCase.n), scale: scale, turns: turns,
      willMeasure: { counter.isArmed = true })
    outcome.allocatorVersion = probe.version
    return outcome
  }

  /// The wall time a measured repetition aims at: long enough to average a per-operation cost
  /// over many operations, short enough that a backend spending microseconds per delivery
  /// does not take seconds per repetition.
  static let repetitionTarget = 0.008

  /// The fraction of the full work the warm-up does, which calibrates the rest.
  static let calibrationScale = WorkScale(1.0 / 16)

  /// The fraction of the full work a first, short warm-up does: when it already takes
  /// ``calibrationSeconds`` or more, it calibrates the rest and the warm-up at
  /// ``calibrationScale`` is not run.
  static let probeScale = WorkScale(1.0 / 64)

  /// How long the short warm-up must take for its time to calibrate the repetitions: long
  /// enough that the clock and a cold first operation are a small part of it.
  static let calibrationSeconds = 0.002

  /// Runs a warm-up, then up to `repetitions` measured repetitions until `budget` seconds have
  /// passed.
  ///
  /// The warm-up does 1/64 of the full work and is timed as a whole, set-up included. When that
  /// took less than ``calibrationSeconds`` (a fast backend), a second warm-up does 1/16 of the
  /// full work and calibrates instead; a slow backend, whose 1/16 took most of its process's
  /// time, is calibrated by the first. The measured repetitions then do as much of the full
  /// work as fits in ``repetitionTarget``.
  /// At the largest sizes there is no warm-up: one repetition already touches every page it
  /// needs, its work is already the least a workload does, and a second would only spend the
  /// cell's budget.
  ///
  /// With a fixed `scale` the warm-up and every repetition do that much work, whatever the
  /// clock says: the instruction count of a repetition then depends on the code alone.
  /// `willMeasure` is called once, after the warm-up and before the first measured repetition.
  /// `calibrationSeconds` replaces ``calibrationSeconds`` (tests choose either warm-up with it).
  /// With `turns`, the warm-up and every repetition wait for this process's turn and pass it on
  /// after (see ``TurnTaking``); the budget then counts the partner's turns too.
  static func repeatMeasuring(
    _ measure: (WorkScale) -> Sample, repetitions: Int, budget: Double, memory: Bool,
    skipWarmUp: Bool = false, scale fixedScale: WorkScale? = nil, turns: TurnTaking? = nil,
    calibrationSeconds: Double = calibrationSeconds, willMeasure: () -> Void = {}
  ) -> CellOutcome {
    defer { turns?.finish() }
    func inTurn(_ scale: WorkScale) -> Sample {
      turns?.take()
      defer { turns?.pass() }
      return measure(scale)
    }
    var outcome = CellOutcome()
    outcome.memoryMeasured = memory
    let start = Stopwatch.now()
    func elapsed() -> Double { Double(Stopwatch.now() - start) / 1e9 }
    var scale = fixedScale ?? .full
    if !skipWarmUp {
      /// Runs a warm-up of `warmUpScale` and returns its seconds, or `nil` after a problem.
      func warmUp(_ warmUpScale: WorkScale) -> Double? {
        turns?.take()
        defer { turns?.pass() }
        let warmUpStart = Stopwatch.now()
        let sample = measure(warmUpScale)
        if let problem = sample.problem {
          outcome.problem = problem
          return nil
        }
        return Double(Stopwatch.now() - warmUpStart) / 1e9
      }
      if let fixedScale {
        guard warmUp(fixedScale) != nil else { return outcome }
      } else {
        guard var seconds = warmUp(probeScale) else { return outcome }
        var calibratedScale = probeScale
        if seconds < calibrationSeconds {
          guard let longer = warmUp(calibrationScale) else { return outcome }
          (seconds, calibratedScale) = (longer, calibrationScale)
        }
        scale = WorkScale(calibratedScale.fraction * repetitionTarget / max(seconds, 1e-6))
      }
    }
    willMeasure()
    outcome.scale = scale.fraction
    var samples: [Sample] = []
    while samples.count < repetitions {
      if elapsed() > budget {
        outcome.capped = CellPolicy.isCapped(measured: samples.count, requested: repetitions)
        break
      }
      let sample = inTurn(scale)
      if let problem = sample.problem {
        outcome.problem = problem
        return outcome
      }
      samples.append(sample)
    }
    outcome.nanosecondsPerOperation = samples.map(\.nanosecondsPerOperation)
    let latencies = samples.flatMap(\.latencies)
    if !latencies.isEmpty { outcome.latencyNanoseconds = latencies.map { Double($0) } }
    outcome.measuredOperations = samples.reduce(0) { $0 + $1.operations }
    outcome.wallSeconds = elapsed()
    outcome.secondsPerRepetition =
      outcome.wallSeconds / Double(samples.count + (skipWarmUp ? 0 : 1))
    if let last = samples.last {
      let operations = Double(max(last.operations, 1))
      outcome.allocationsPerOperation = last.allocations.map { Double($0) / operations }
      outcome.bytesPerOperation = last.allocatedBytes.map { Double($0) / operations }
      outcome.retainedBytesPerObserver = last.retainedBytesPerObserver
    }
    return outcome
  }

  /// Turns callgrind's instrumentation on for the timed regions of measured repetitions only.
  final class InstructionRegion {
    /// Set once the warm-up is over.
    var isArmed = false

    func regionWillStart() {
      if isArmed { instruction_counting_start() }
    }

    func regionDidEnd() {
      if isArmed { instruction_counting_stop() }
    }
  }
}
