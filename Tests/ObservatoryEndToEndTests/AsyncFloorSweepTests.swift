import Foundation
import Testing

@testable import ObservationReports

/// A sweep of an asynchronous backend measures the asynchronous floor beside it and reads the
/// backend's ratio to the limit against the floor, as the built executable runs it.
@Suite("Asynchronous floor in a sweep")
struct AsyncFloorSweepTests {
  @Test("async-stream's notify reads its ratio against reference-async-tasks, with latencies")
  func asyncBackendReadsTheFloor() throws {
    let directory = FileManager.default.temporaryDirectory
    let run = try BuiltTool.run(
      [
        "run", "--allow-debug", "--format", "json", "--output", "-", "--backend",
        "async-stream,array", "--workload", "notify", "--sizes", "16", "--repetitions", "1",
        "--processes", "1", "--allocator", "system", "--quiet",
      ], in: directory)
    #expect(run.status == 0, "\(run.errors)")
    let report = try JSONDecoder().decode(Report.self, from: Data(run.output.utf8))
    func row(_ backend: String) throws -> CellResult {
      try #require(report.results.first { $0.cell.backend == backend })
    }
    let floor = try row("reference-async-tasks")
    let limit = try row("reference-c")
    let asyncStream = try row("async-stream")
    let array = try row("array")
    for result in [floor, limit, asyncStream, array] {
      #expect(result.status.isMeasured, "\(result.cell.backend): \(result.status)")
    }
    #expect(floor.rowKind == .reference)
    #expect(floor.latencyMedian != nil && asyncStream.latencyMedian != nil)
    // The report rounds its numbers; a ratio read against the wrong row is off by far more.
    func isClose(_ ratio: Double?, _ expected: Double) -> Bool {
      guard let ratio else { return false }
      return abs(ratio - expected) <= expected * 1e-3
    }
    let floorCost = try #require(floor.cost)
    let limitCost = try #require(limit.cost)
    let asyncCost = try #require(asyncStream.cost)
    let arrayCost = try #require(array.cost)
    #expect(isClose(asyncStream.ratioToLimit, asyncCost / floorCost), "\(asyncStream)")
    #expect(isClose(array.ratioToLimit, arrayCost / limitCost), "\(array)")
  }
}
