import ObservationReports
import ObservationWorkloads

/// Fixtures: time reports made to be compared, as `compare`, `report` and the sweep's summary
/// read them.
package enum ComparedReports {
  package static let backends = ["linked-list", "array", "key-path", "combine-passthrough"]
  package static let sizes = [1, 2, 4, 8, 16, 64, 256, 1024, 4096, 16384, 65536, 262_144]

  /// A time report of 48 notify cells (4 backends, 12 sizes) and, unless `references` is
  /// false, the two reference rows at the same sizes. Each cell's repetitions are `samples`,
  /// scaled by the backend's factor (1 unless given; a reference row's is `machine`) and a
  /// small fixed jitter per cell, so that the comparison sees some scatter between runs.
  package static func report(
    factors: [String: Double] = [:], cellFactors: [String: Double] = [:],
    samples: [Double] = [100, 101, 102, 103, 104], backendSamples: [String: [Double]] = [:],
    jitter: Bool = true,
    references: Bool = true, machine: Double = 1, environment: RunEnvironment = Rows.environment
  ) -> String {
    var results: [CellResult] = []
    let referenceNames = references ? ReferenceRow.names : []
    for (b, backend) in (backends + referenceNames).enumerated() {
      for (s, n) in sizes.enumerated() {
        let plan = Rows.plan(backend, n: n)
        let wobble = jitter ? 1 + 0.01 * Double((b * 3 + s * 7) % 5 - 2) : 1
        let factor =
          (referenceNames.contains(backend) ? machine : factors[backend] ?? 1)
          * (cellFactors["\(backend)/\(n)"] ?? 1) * wobble * Double(10 * (b + 1))
        results.append(
          Rows.result(
            plan, (backendSamples[backend] ?? samples).map { $0 * factor },
            environment: environment))
      }
    }
    return Rows.report(results)
  }

  /// A base report and two candidates: one in which a single cell moved alone (inconclusive),
  /// one in which, besides that cell, every `array` cell is 50% slower (a regression).
  package static func inconclusiveReports() -> (base: String, weather: String, regressed: String) {
    let weather = ["linked-list/1024": 1.5]
    return (
      Rows.write(report()), Rows.write(report(cellFactors: weather)),
      Rows.write(report(factors: ["array": 1.5], cellFactors: weather))
    )
  }

  /// The comparison of two reports' CSV texts, as `compare` makes it of their files.
  package static func compare(
    _ base: String, _ candidate: String, threshold: Double = 0.05
  ) throws -> Comparison {
    try Comparison(
      base: try ReportReader.read(Rows.write(base)),
      candidate: try ReportReader.read(Rows.write(candidate)),
      threshold: threshold)
  }
}
