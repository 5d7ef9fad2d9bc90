import ArgumentParser
import ObservationHarness
import ObservationReports

/// The cells CI counts instructions of (``SweepPlan/instructionGate(of:)``), and where their
/// baseline is.
enum InstructionGate {
  static let defaultPath = "Results/baselines/instructions.csv"
  /// The command that records the baseline, as the README gives it.
  static let record = ReleaseBuild.then("baseline record")
  /// The command that checks the counts against the baseline, as the README gives it.
  static let check = ReleaseBuild.then("baseline check")
  /// The observer counts the gate counts at.
  static let sizes = SweepPlan.gateSizes
  /// Counts the gate's cells of `tool`'s backends: every one written in the package that runs
  /// the tool (see ``SweepPlan/gatedBackends(of:)``), and the reference rows.
  static func measure(_ tool: Tool, quiet: Bool) throws -> Report {
    if RunEnvironment.isDebugBuild {
      throw ValidationError(
        "this is a debug build; the gate counts release code. Use `\(check)`")
    }
    return try Sweep.run(
      .instructionGate(of: tool.rows), among: tool.rows, jemalloc: nil,
      environment: .current(), progress: SweepProgress.factory(quiet: quiet, toolName: tool.name)
    ).report
  }
}
