import ArgumentParser
import ObservationHarness
import ObservationReports

/// The cells CI counts instructions of (``SweepPlan/instructionGate(of:)``), and where their
/// baseline is.
enum InstructionGate {
  static let defaultPath = "Results/baselines/instructions.csv"
  /// The observer counts the gate counts at.
  static let sizes = SweepPlan.gateSizes
  /// Every backend written in the package that runs the tool (see ``BackendProvenance``).
  static var backends: [String] { SweepPlan.gatedBackends(of: ObservatoryTool.backends) }

  /// Counts the gate's cells.
  static func measure(quiet: Bool) throws -> Report {
    if RunEnvironment.isDebugBuild {
      throw ValidationError(
        "this is a debug build; the gate counts release code. Use `swift run -c release"
          + " observatory baseline ...`")
    }
    return try Sweep.run(
      .instructionGate(of: ObservatoryTool.backends), among: ObservatoryTool.backends,
      jemalloc: nil, environment: .current(), progress: SweepProgress.factory(quiet: quiet)
    ).report
  }
}
