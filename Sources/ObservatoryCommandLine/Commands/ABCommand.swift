import ArgumentParser
import Foundation
import ObservationHarness
import ObservationReports
import ObservationWorkloads

/// `observatory ab --base A --candidate B`: two builds measured on the same cells, interleaved,
/// with a confidence interval per cell.
struct ABCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "ab",
    abstract:
      "Measure two builds of the tool side by side, interleaved; \(ConclusionOptions.abstract).",
    discussion: """
      For every selected cell, the base build first calibrates the work of a repetition (a \
      quarter of its usual 20 ms). Then --rounds rounds each start one fresh process of either \
      build, both pinned to one processor (rounds go round the processors), and the two take \
      turns: a base repetition, a candidate repetition, and so on, --repetitions each. A \
      repetition's partner is measured within milliseconds of it, on the same processor, so \
      what the machine is doing at that moment cancels out of their ratio. A round's ratio is \
      the median of its pairs' ratios; the cell's ratio is the Hodges-Lehmann estimate over \
      the rounds, with the distribution-free (Wilcoxon signed-rank) confidence interval, which \
      needs at least 6 rounds at 95%.

      A cell regresses when its whole interval lies above 1 + --threshold, improves when it \
      lies below 1 - --threshold, is unchanged when it lies within both, and is inconclusive \
      otherwise. A regression or an improvement is measured again with as many rounds: the \
      second batch alone must move the same way past the threshold, and the interval over \
      both must still clear it, or the cell is inconclusive. Both executables must be builds \
      of this tool whose `cell` takes turns (this version or later): give their paths, or git \
      refs to build (--base-ref main --candidate-ref HEAD), each into .build-ab-<commit>. Exit \
      status: \(ConclusionOptions.statuses)
      """)

  @Option(name: .long, help: "The base build's observatory executable.") var base: String?
  @Option(name: .long, help: "The candidate build's observatory executable.")
  var candidate: String?
  @Option(
    name: .long,
    help: "A git ref to build (release, into .build-ab-<commit>) and use as the base.")
  var baseRef: String?
  @Option(name: .long, help: "A git ref to build and use as the candidate.")
  var candidateRef: String?

  @OptionGroup var selection: CellSelection

  @Option(
    name: .long,
    help: "Rounds per cell, each a pair of processes taking turns (default 8, at least 6 at 95%).")
  var rounds: Int = 8

  @Option(name: .long, help: "Repetitions per process, taken in turns (default 10).")
  var repetitions: Int = 10

  @Option(name: .long, help: "Percent a median must change by to count (default 5).")
  var threshold: Double = 5

  @Option(name: .long, help: "Confidence of each cell's interval (default 0.95).")
  var confidence: Double = 0.95

  @Option(name: .long, help: "Seconds one process may spend before it is stopped (default 1).")
  var cellBudget: Double = 1

  @OptionGroup var output: ComparisonOutputOptions

  @OptionGroup var ending: ConclusionOptions

  @OptionGroup var reporting: ProgressOptions

  func validate() throws {
    for (side, path, ref) in [("base", base, baseRef), ("candidate", candidate, candidateRef)] {
      guard (path == nil) != (ref == nil) else {
        throw ValidationError(
          "give the \(side) as --\(side) PATH (an observatory executable) or --\(side)-ref REF"
            + " (a git ref to build), one of the two")
      }
      guard let path else { continue }
      let option = "--" + side
      var status = stat()
      guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        access(path, X_OK) == 0
      else {
        throw ValidationError(
          "\(option) '\(path)' is not an executable file; give the path of an observatory build,"
            + " e.g. .build-base/release/observatory")
      }
    }
    guard (1...100).contains(rounds) else {
      throw ValidationError("--rounds must be an integer from 1 to 100, got \(rounds)")
    }
    guard (1...1000).contains(repetitions) else {
      throw ValidationError("--repetitions must be an integer from 1 to 1000, got \(repetitions)")
    }
    guard threshold.isFinite && threshold >= 0 && threshold <= 1000 else {
      throw ValidationError("--threshold must be a percentage from 0 to 1000, got \(threshold)")
    }
    guard confidence > 0.5 && confidence < 1 else {
      throw ValidationError("--confidence must be a fraction in (0.5, 1), got \(confidence)")
    }
    guard RatioEstimate.signedRankCriticalCount(n: rounds, tail: (1 - confidence) / 2) != nil
    else {
      let least = (1...100).first {
        RatioEstimate.signedRankCriticalCount(n: $0, tail: (1 - confidence) / 2) != nil
      }
      throw ValidationError(
        "--rounds \(rounds) is too few for a \(csvNumber(confidence * 100))% interval; give at"
          + " least \(least.map(String.init) ?? "more") rounds or a lower --confidence")
    }
    guard cellBudget.isFinite && cellBudget > 0 && cellBudget <= 86_400 else {
      throw ValidationError(
        "--cell-budget must be a number of seconds in (0, 86400], got \(cellBudget)")
    }
  }

  func run(with tool: Tool) throws {
    // The backends named are checked before anything is built.
    _ = try tool.selectedRows(selection.backend)
    let base: String
    let candidate: String
    do {
      base = try self.base ?? RefBuilder.build(baseRef!, quiet: reporting.quiet)
      candidate = try self.candidate ?? RefBuilder.build(candidateRef!, quiet: reporting.quiet)
    } catch let error as RefBuilder.Failure {
      throw ValidationError(error.description)
    }
    let jemalloc = try JemallocLocator.find()
    // A cell whose workload does not apply to its backend (a contended one, on a backend that
    // is not thread-safe) has nothing to pair.
    let cells = try selection.plan(
      of: tool, allocators: try selection.allocators(jemalloc: jemalloc),
      repetitions: repetitions
    ).cells.filter { tool.rows.row(named: $0.backend)?.reasonNotMeasured(on: $0.workload) == nil }
    func runner(_ path: String) -> CellRunner {
      CellRunner(
        executable: URL(fileURLWithPath: path), jemallocPath: jemalloc,
        repetitions: { [repetitions] _ in repetitions }, budget: cellBudget, seed: 0x5EED,
        processes: { _ in 1 })
    }
    for (side, path) in [("base", base), ("candidate", candidate)] {
      if let reason = runner(path).checkExecutable() {
        throw ValidationError(
          "the \(side) build (\(path)) cannot measure this build's cells: \(reason). Build"
            + " both sides from the same version of the cell request, this one or later")
      }
    }
    if cells.contains(where: { $0.allocator == .jemalloc }) {
      try runner(base).checkJemalloc()
    }
    let pair = PairedRunner(
      base: runner(base), candidate: runner(candidate), rounds: rounds,
      repetitions: repetitions, threshold: threshold / 100, confidence: confidence)
    var progress = SweepProgress(total: cells.count, quiet: reporting.quiet)
    var entries: [PairedRunner.Entry] = []
    for cell in cells {
      let entry = pair.run(cell)
      entries.append(entry)
      progress.advance(
        "\(cell.backend) \(cell.workload.rawValue) \(cell.pattern.rawValue) n=\(cell.n):"
          + " \(entry.verdict.rawValue)")
    }
    let report = PairedReport(cells: entries, threshold: threshold / 100, confidence: confidence)
    try StandardOutput.write(
      try output.render(
        text: report.text(changesOnly:), markdown: report.markdown(changesOnly:),
        json: report.json(changesOnly:)))
    try ending.end(
      with: report.conclusion, inconclusive: report.inconclusive.count, toolName: tool.name)
  }
}
