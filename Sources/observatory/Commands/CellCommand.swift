import ArgumentParser
import Foundation
import ObservationWorkloads

/// `observatory cell`: measures one cell in this process and prints the outcome as JSON. The
/// sweep runs every cell this way, each in a fresh process, because heap history from earlier
/// cells skews later ones.
struct CellCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cell", abstract: "Measure one cell (used by `run`; one process per cell).",
    shouldDisplay: false)

  @Option var backend: String
  @Option var workload: String
  @Option var pattern: String = WorkloadPattern.none.rawValue
  @Option var n: Int
  @Option var depth: Int = 0
  @Option var repetitions: Int
  @Option(help: "Seconds after which no new repetition starts.") var budget: Double
  @Option var seed: UInt64 = 0x5EED

  func run() throws {
    guard let workload = Workload(rawValue: workload) else {
      throw ValidationError("unknown workload '\(self.workload)'")
    }
    guard let pattern = WorkloadPattern(rawValue: pattern) else {
      throw ValidationError("unknown pattern '\(self.pattern)'")
    }
    if workload.hasDepth && depth < pattern.minimumDepth {
      throw ValidationError(
        "--depth \(depth) is too shallow for \(workload.rawValue) \(pattern.rawValue)")
    }
    guard
      let outcome = CellExecution.run(
        backend: backend, workload: workload, pattern: pattern, n: n, depth: depth,
        repetitions: repetitions,
        budget: budget, seed: seed)
    else {
      throw ValidationError("unknown backend '\(backend)'")
    }
    let data = try JSONEncoder().encode(outcome)
    FileHandle.standardOutput.write(data)
  }
}
