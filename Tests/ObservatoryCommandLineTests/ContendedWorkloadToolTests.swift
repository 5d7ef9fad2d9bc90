import ArgumentParser
import ObservationWorkloads
import ReportFixtures
import SweepFixtures
import Testing

@testable import ObservationHarness
@testable import ObservationReports
@testable import ObservatoryCommandLine

/// The contended workloads as the tool selects and tabulates them (their measurement is
/// `ObservationHarnessTests`').
@Suite("Contended workloads in the tool")
struct ContendedWorkloadToolTests {
  @Test("--metric instructions refuses a contended workload, saying why")
  func instructionsRefused() throws {
    RunValidationTests.rejects(
      ["run", "--allow-debug", "--metric", "instructions", "--workload", "contended-notify"],
      mentioning: "callgrind runs one thread at a time")
    RunValidationTests.rejects(
      ["run", "--allow-debug", "--threads", "1,0"], mentioning: "bad thread count '0'")
    // Without naming them, a count leaves them out.
    let selection = try CellSelection.parse([])
    let counted = selection.plannedWorkloads(metric: .instructions)
    #expect(!counted.contains { $0.isContended })
    #expect(selection.plannedWorkloads(metric: .time).contains(.contendedChurn))
  }

  @Test("table prints a contended table per size, and names the backends it is n/a for")
  func table() throws {
    var cells: [(Cell, CellRunner.Result?)] = []
    for threads in [1, 2] {
      cells.append(
        (
          Cell(
            allocator: .jemalloc, backend: "dense-synchronized", workload: .contendedNotify,
            n: 16, threads: threads),
          .finished(Rows.outcome([10, 11, 12].map { $0 * Double(threads) }))
        ))
      cells.append(
        (
          Cell(
            allocator: .jemalloc, backend: "linked-list", workload: .contendedNotify,
            n: 16, threads: threads), .notApplicable("not thread-safe")
        ))
    }
    let text = try TableCommand.parse([Rows.write(Rows.report(cells))]).table()
    #expect(text.contains("| backend | contended-notify t=1 | contended-notify t=2 |"), "\(text)")
    #expect(text.contains("| `dense-synchronized` | 11.0 ns | 22.0 ns |"), "\(text)")
    #expect(text.contains("n/a (threadSafe is not declared): `linked-list`"), "\(text)")
  }
}
