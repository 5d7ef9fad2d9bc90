import ObservationWorkloads
import ReportFixtures
import Testing

@testable import ObservationReports

/// A report with the asynchronous floor, `reference-async-tasks`, reads back as written, and
/// the floor is a reference row that does not stand for the machine's speed.
@Suite("Asynchronous floor in a report")
struct AsyncFloorReportTests {
  /// A report with the floor's notify (with its latencies) and an asynchronous backend's,
  /// the backend read against the floor, as the sweep writes them.
  static func report() -> String {
    var floor = Rows.result(Rows.plan("reference-async-tasks"), [100, 110, 120], ratioToLimit: 55)
    floor.latencyMedian = 2_000
    floor.latencyP99 = 2_980
    var backend = Rows.result(Rows.plan("async-stream"), [300, 330, 360], ratioToLimit: 3)
    backend.latencyMedian = 5_000
    backend.latencyP99 = 8_920
    return Rows.report([
      Rows.result(Rows.plan("reference-c"), [2, 2, 2], ratioToLimit: 1), floor, backend,
    ])
  }

  @Test("The floor's row, with its latencies and ratio, round-trips through the CSV reader")
  func roundTrip() throws {
    let text = Self.report()
    let rows = try ReportReader.read(Rows.write(text))
    #expect(rows.map(\.cell.backend) == ["reference-c", "reference-async-tasks", "async-stream"])
    #expect(rows.map(\.rowKind) == [.reference, .reference, .backend])
    let floor = rows[1]
    #expect(floor.latencyMedian == 2_000 && floor.latencyP99 == 2_980)
    #expect(floor.ratioToLimit.map(csvNumber) == csvNumber(110 / 2))
    #expect(rows[2].ratioToLimit.map(csvNumber) == csvNumber(3))
    #expect(Report(rows).csv == text)
    // Written before the row_kind column, the floor is still a reference row by its name.
    let older = Rows.csv(rows, asSchema: "3")
    #expect(
      try ReportReader.read(Rows.write(older)).map(\.rowKind) == [.reference, .reference, .backend])
  }

  @Test("A machine's speed leaves the asynchronous floor out")
  func machineSpeed() throws {
    let rows = try ReportReader.read(Rows.write(Self.report()))
    #expect(ReportSeries.machineSpeed(of: rows, n: 16) == 2)
    #expect(ReferenceRow.allCases.filter { !$0.measuresMachineSpeed } == [.asyncTasks])
  }
}
