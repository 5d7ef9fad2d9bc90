import DenseBackend
import ObservationConformance
import ObservationCore
import Testing

/// Observatory's own backend through the public entry point, exactly as a third party runs the
/// suite, with and without replay.
@Suite("Observatory's own backend passes every rule it declares")
struct DenseBackendConformanceTests {
  @Test("dense, with and without replay", arguments: [false, true])
  func passesEveryDeclaredRule(replays: Bool) throws {
    let backend = DenseStrategy(replays: replays)
    let report = ConformanceSuite.run(backend)
    #expect(report.failures.map(\.rule.id) == [], "\(backend.name)")
    for id in [
      "DIFF-01", "DEL-06", "ORD-01", "ORD-03", "REE-02", "REE-05", "CAN-02", "CAN-06", "CAN-09",
      "MEM-04", "MEM-05", "MEM-07", "SUB-04", "SCALE-01",
    ] + (replays ? ["INIT-01", "INIT-05", "SUB-02", "SUB-03"] : ["INIT-02", "SUB-01"]) {
      let outcome = try #require(report.outcome(of: id))
      #expect(outcome.kind == .passed, "\(backend.name) \(id): \(outcome.details)")
    }
  }
}
