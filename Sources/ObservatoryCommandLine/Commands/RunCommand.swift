import ArgumentParser
import Foundation
import ObservationBackends
import ObservationHarness
import ObservationReports
import ObservationWorkloads

/// `observatory run` (the default): the sweep.
struct RunCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract:
      "Measure subscribe, notify, cancel, churn, fan-in and erased costs over observer counts.",
    discussion: """
      Every backend × workload × size × allocator is a cell, measured in a fresh process with \
      a warm-up and repetitions. Writes a CSV report (schema in Results/README.md) atomically \
      to --output, by default Results/<date>_<commit>_<host>.csv, with _quick when --quick, \
      _partial when the selection is narrowed, _instructions for counts, and _2, _3, ... when \
      that name is taken, before or while the sweep runs: a run never replaces a report \
      unless --output names it and --force is given. The output path is checked before \
      anything is measured.

      Progress goes to standard error: on a terminal, one line redrawn in place that fits \
      the window (COLUMNS, else the terminal's width) with the time left as the sweep's cost \
      projection estimates it; elsewhere, a line per tenth of the cells. At the end a summary follows: the \
      cells ok, capped, invalid and failed, the wall time, where the report went, the \
      backends with the most capped cells, and the table, report and compare commands to \
      run on it. --quiet drops the progress and prints the summary as one line, for CI logs.
      """)

  @OptionGroup var selection: CellSelection

  @Option(name: .long, help: "Where to write the report; '-' for standard output.")
  var output: String?

  @Option(
    name: .long,
    help:
      "csv (the report compare, history and table read) or json (the same results, for CI tools).")
  var format: ReportFormat = .csv

  /// How `run` writes its report.
  enum ReportFormat: String, CaseIterable, ExpressibleByArgument {
    /// The CSV report of ``ReportSchema``.
    case csv
    /// The same results as JSON: `{"schema": ..., "results": [...]}`.
    case json
  }

  @Flag(name: .long, help: "Replace the file --output names if it exists (a regular file only).")
  var force = false

  @Option(name: .long, help: "Repetitions per cell after the warm-up (default 9; 3 with --quick).")
  var repetitions: Int?

  @Option(
    name: .long,
    help: """
      time (wall-clock ns per operation) or instructions (counted by callgrind over a fixed \
      amount of work: repeatable, for comparing commits; the system allocator unless \
      --allocator says otherwise).
      """)
  var metric: Metric = .time

  @Flag(
    name: .long,
    help: "With --metric instructions: simulate the caches and report D1 and LL misses.")
  var cacheSim = false

  @Option(
    name: .long,
    help: "Seconds per cell before it is capped (default 1; 120 with --metric instructions).")
  var cellBudget: Double?

  @Option(
    name: .long,
    help: """
      Processes each cell's repetitions are spread over (default 3; with --metric \
      instructions 1, or 3 for a backend that delivers asynchronously, to measure its spread).
      """)
  var processes: Int?

  @OptionGroup var reporting: ProgressOptions

  @Flag(name: .long, help: "Allow writing a report from a debug build (its numbers mean little).")
  var allowDebug = false

  func validate() throws {
    if RunEnvironment.isDebugBuild && !allowDebug {
      throw ValidationError(
        "this is a debug build; its timings are not worth a report. Use `\(ReleaseBuild.then())`,"
          + " or pass --allow-debug")
    }
    if let processes, !(1...100).contains(processes) {
      throw ValidationError("--processes must be an integer from 1 to 100, got \(processes)")
    }
    let repetitionRange = CellRequest.repetitionRange
    if let repetitions, !repetitionRange.contains(repetitions) {
      throw ValidationError(
        "--repetitions must be an integer from \(repetitionRange.lowerBound) to"
          + " \(repetitionRange.upperBound), got \(repetitions)")
    }
    let maximumBudget = CellRequest.maximumBudget
    if let cellBudget, !(cellBudget.isFinite && cellBudget > 0 && cellBudget <= maximumBudget) {
      throw ValidationError(
        "--cell-budget must be a number of seconds in (0, \(Int(maximumBudget))], got"
          + " \(cellBudget)")
    }
    if format == .json && output == nil {
      throw ValidationError(
        "--format json needs --output FILE or --output -; the default report under Results/ is"
          + " the CSV that compare, history and table read")
    }
    try selection.checkCountable(metric)
    if cacheSim && metric != .instructions {
      throw ValidationError("--cache-sim goes with --metric instructions")
    }
  }

  func run(with tool: Tool) throws {
    // The backends named are checked before anything is looked up or measured.
    _ = try tool.selectedRows(selection.backend)
    let jemalloc = try JemallocLocator.find()
    // Counting instructions, jemalloc's purging on a clock makes the same build's counts differ
    // by up to 0.7% between runs; the system allocator's are identical.
    let allocators = try selection.allocators(
      jemalloc: jemalloc, preferSystem: metric == .instructions)
    let environment = RunEnvironment.current()
    let file = try destination(environment)
    try file?.check()

    let plan = try selection.plan(
      of: tool, allocators: allocators, metric: metric,
      repetitions: repetitions ?? (selection.quick ? 3 : 9),
      processes: processes, budget: cellBudget, simulatesCaches: cacheSim)
    let (report, wallSeconds) = try Sweep.run(
      plan, among: tool.rows, jemalloc: jemalloc, environment: environment,
      progress: SweepProgress.factory(quiet: reporting.quiet, toolName: tool.name))
    let text = format == .json ? try report.json() : report.csv
    var destination = SweepSummary.Destination.standardOutput
    var baseline: String?
    if let file {
      let written = try file.write(text)
      destination = format == .json ? .json(written) : .csv(written)
      if format == .csv {
        baseline = DefaultReportName.latestComparable(to: written, results: report.results)
      }
    } else {
      try StandardOutput.write(text)
    }
    let summary = SweepSummary(
      report: report, wallSeconds: wallSeconds, destination: destination,
      baseline: baseline, tool: Self.toolName, toolName: tool.name,
      tableSizes: TableCommand.defaultSizes)
    StandardOutput.writeError(reporting.quiet ? summary.line : summary.text)
  }

  /// What the suggested commands call this tool: the name it was run by.
  static var toolName: String {
    CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } ?? "observatory"
  }

  /// Where the report goes: `nil` for standard output, the `--output` file, or the default
  /// name (see ``DefaultReportName``), which says what kind of sweep made it and takes the
  /// first free number after it, now and again when writing if another run took it meanwhile.
  func destination(_ environment: RunEnvironment) throws -> OutputFile? {
    if output == "-" { return nil }
    if let output { return OutputFile(output, replacing: force) }
    let name = DefaultReportName(environment, sweep: selection.sweepKind, metric: metric)
    guard let number = name.firstFree() else {
      throw ValidationError(
        "\(name.path(1)) and \(DefaultReportName.largestNumber - 1) numbered names after it"
          + " exist; pass --output")
    }
    return OutputFile(name, number: number)
  }
}
