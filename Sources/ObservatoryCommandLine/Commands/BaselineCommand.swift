import ArgumentParser
import Foundation
import ObservationBackends
import ObservationHarness
import ObservationReports
import ObservationWorkloads

/// `observatory baseline check|record`: CI's gate on instruction counts.
struct BaselineCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "baseline",
    abstract: "Check or record the instruction counts CI gates on (Results/baselines/).",
    discussion: """
      The gate's cells are every backend written in this package (those `list` names with no \
      library) and the reference rows, on notify, \
      subscribe and cancel (random) at n = \
      \(InstructionGate.sizes.map(String.init).joined(separator: " and ")), counted under \
      callgrind (`run --metric instructions`). A commit that changes them on purpose records \
      the baseline again, in the same commit.
      """,
    subcommands: [Check.self, Record.self])

  struct Options: ParsableArguments {
    @Option(name: .long, help: "The baseline report.")
    var baseline = InstructionGate.defaultPath

    @OptionGroup var reporting: ProgressOptions
  }

  /// `baseline check`: measure the gate's cells and compare them with the baseline.
  struct Check: ToolCommand {
    static let configuration = CommandConfiguration(
      abstract: """
        Count the gate's cells and compare them with the baseline; exit \
        \(ExitStatus.regression.rawValue) on a change.
        """,
      discussion: """
        A cell whose count moved by more than --threshold percent either way fails the check: \
        up is a regression; down means the baseline is stale and hides the next regression \
        by as much. Exit status: \(ExitStatus.success.rawValue) within the threshold, \
        \(ExitStatus.regression.rawValue) changed, \(ExitStatus.failure.rawValue) usage or input \
        error.
        """)

    @OptionGroup var options: Options

    @Option(name: .long, help: "Percent a count may move either way (default 1; at most 2).")
    var threshold: Double = 1

    func validate() throws {
      guard threshold.isFinite && threshold >= 0 && threshold <= 2 else {
        throw ValidationError("--threshold must be a percentage from 0 to 2, got \(threshold)")
      }
    }

    func run(with tool: Tool) throws {
      let baseline: [CellResult]
      do { baseline = try Report.read(options.baseline).results } catch let error as ReportError {
        throw ValidationError(error.description + "; record one with `\(InstructionGate.record)`")
      }
      // Before three minutes under callgrind: a count depends on the build as much as on the
      // code, and `Comparison` would refuse the two builds' counts only after them.
      if let recorded = baseline.first?.environment.build, recorded != RunEnvironment.buildName {
        throw ValidationError(
          "\(options.baseline) was counted in a '\(recorded)' build and this tool is a"
            + " '\(RunEnvironment.buildName)' build, whose counts differ for every Swift backend;"
            + " run the gate from the build it was recorded with (`\(InstructionGate.check)`),"
            + " or record the baseline again from this one")
      }
      let measured = try InstructionGate.measure(tool, quiet: options.reporting.quiet).results
      let missing = measured.map(\.cell.key).filter { key in
        !baseline.contains { $0.cell.key == key }
      }
      guard missing.isEmpty else {
        throw ValidationError(
          "\(options.baseline) has no row for \(missing.count) of the gate's cells (first:"
            + " \(missing[0])); record it again with `\(InstructionGate.record)`")
      }
      let comparison = try Comparison(
        base: baseline, candidate: measured, threshold: threshold / 100)
      try StandardOutput.write(comparison.text())
      let moved = comparison.cells.filter { $0.verdict != .unchanged }
      if !moved.isEmpty {
        StandardOutput.writeError(
          "\(tool.name): \(moved.count) gate cell(s) moved by more than \(csvNumber(threshold))%:"
            + " \(moved.map(\.key).joined(separator: ", ")). If the change is intended, run"
            + " `\(InstructionGate.record)` and commit \(options.baseline) with it.\n")
        throw ExitCode(ExitStatus.regression.rawValue)
      }
    }
  }

  /// `baseline record`: measure the gate's cells and replace the baseline.
  struct Record: ToolCommand {
    static let configuration = CommandConfiguration(
      abstract: "Count the gate's cells and write them as the new baseline.")

    @OptionGroup var options: Options

    func run(with tool: Tool) throws {
      // Recording replaces the baseline: that is what the command is for.
      let file = OutputFile(options.baseline, replacing: true, option: "--baseline")
      try file.check()
      let report = try InstructionGate.measure(tool, quiet: options.reporting.quiet)
      let unmeasured = report.results.filter { !Comparison.measured($0) }
      guard unmeasured.isEmpty else {
        throw ValidationError(
          "\(unmeasured.count) gate cell(s) were not measured (first: \(unmeasured[0].cell.key):"
            + " \(unmeasured[0].status.name) \(unmeasured[0].status.reason)); the baseline is"
            + " unchanged")
      }
      try file.write(report.csv)
      StandardOutput.writeError(
        "\(tool.name): wrote \(report.results.count) rows to \(options.baseline)\n")
    }
  }
}
