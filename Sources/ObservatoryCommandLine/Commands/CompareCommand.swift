import ArgumentParser
import Foundation
import ObservationReports

/// `observatory compare BASE CANDIDATE`: a verdict on two reports CI can gate on.
struct CompareCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "compare",
    abstract: "Compare two reports cell by cell; \(ConclusionOptions.abstract).",
    discussion: """
      Both reports must be of one metric and one schema, and share at least one cell.

      instructions: a cell regresses when its count grew by more than --threshold percent and \
      by more than the spread of its processes' counts (none for a synchronous backend).

      time: two separate runs on a shared machine differ by far more than their repetitions \
      show, so the verdict is made for each backend as a whole. The reference rows measure the \
      machine's speed in each run; their median change is taken out of every cell. A backend \
      with 12 or more cells in common (4 or more such backends for the alone test) moved when \
      the median change of its cells stands 4 deviations beyond the noise of this \
      comparison, alone (against the other backends) or together with them (against the \
      reference rows); its cells past --threshold percent then regress or improve. A cell past \
      the threshold whose backend did not move is `inconclusive`, as is every cell when the \
      runs' cells scatter by more than 28% around their backend's median (a busy machine): \
      measure it with `observatory ab` \
      or `--metric instructions`. Reports of different machines (host, CPU, cores) are \
      refused unless --allow-other-machine; reports whose reference rows moved by a factor of \
      2 or more are not comparable (exit 1, naming them).

      A cell measured in the base but invalid or failed in the candidate regresses; one capped \
      in the candidate is reported, not gated on. Exit status: \(ConclusionOptions.statuses)
      """)

  @Argument(help: "The base report (CSV).") var base: String
  @Argument(help: "The candidate report (CSV).") var candidate: String

  @Option(
    name: .long,
    help: "Percent a cost must change by to count (default 5 for time, 1 for instructions).")
  var threshold: Double?

  @Flag(
    name: .long,
    help: "Compare timed reports of different machines (host, CPU or cores) instead of refusing.")
  var allowOtherMachine = false

  @OptionGroup var output: ComparisonOutputOptions

  @OptionGroup var ending: ConclusionOptions

  func validate() throws {
    if let threshold, !(threshold.isFinite && threshold >= 0 && threshold <= 1000) {
      throw ValidationError("--threshold must be a percentage from 0 to 1000, got \(threshold)")
    }
  }

  func run(with tool: Tool) throws {
    let comparison: Comparison
    do {
      let baseRows = try Report.read(base).results
      let candidateRows = try Report.read(candidate).results
      let metric = baseRows[0].metric
      comparison = try Comparison(
        base: baseRows, candidate: candidateRows,
        threshold: threshold.map { $0 / 100 } ?? Comparison.defaultThreshold(for: metric),
        allowingOtherMachine: allowOtherMachine)
    } catch let error as ReportError {
      throw ValidationError(error.description)
    } catch let error as Comparison.InputError {
      var description = error.description
      if case .otherMachine = error {
        description += " (--allow-other-machine)"
      }
      throw ValidationError("\(base) and \(candidate): \(description)")
    }
    if !comparison.machineDifferences.isEmpty {
      // A warning: with standard error closed or full, the comparison goes on and its exit
      // status still says what it found.
      StandardOutput.writeError(
        BoundedLine.shortened(
          "\(tool.name): comparing runs of different machines: "
            + comparison.machineDifferences.joined(separator: "; ")) + "\n")
    }
    try StandardOutput.write(
      try output.render(
        text: comparison.text(changesOnly:), markdown: comparison.markdown(changesOnly:),
        json: comparison.json(changesOnly:)))
    try ending.end(
      with: comparison.conclusion, inconclusive: comparison.inconclusive.count,
      toolName: tool.name)
  }
}
