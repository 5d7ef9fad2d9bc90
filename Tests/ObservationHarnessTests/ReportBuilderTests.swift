import ObservationReports
import ObservationWorkloads
import ReportFixtures
import SweepFixtures
import Testing

@testable import ObservationHarness

/// How the sweep turns what each cell measured into a report's rows: limit ratios, statuses,
/// memory columns and latencies (the results model's reading and writing is
/// `ObservationReportsTests`').
@Suite("Report builder")
struct ReportBuilderTests {
  @Test("Subscribe and cancel read against the C row of their own workload and pattern")
  func limitsPerWorkloadAndPattern() throws {
    func cell(
      _ backend: String, _ workload: Workload, _ pattern: WorkloadPattern = .single
    )
      -> Cell
    {
      Cell(allocator: .jemalloc, backend: backend, workload: workload, pattern: pattern, n: 16)
    }
    let text = Rows.report([
      (cell("reference-c", .notify), .finished(Rows.outcome([2, 2, 2]))),
      (cell("reference-c", .subscribe), .finished(Rows.outcome([10, 10, 10]))),
      (cell("reference-c", .cancel, .fifo), .finished(Rows.outcome([4, 4, 4]))),
      (cell("reference-c", .cancel, .random), .finished(Rows.outcome([8, 8, 8]))),
      (cell("dense", .notify), .finished(Rows.outcome([3, 3, 3]))),
      (cell("dense", .subscribe), .finished(Rows.outcome([25, 25, 25]))),
      (cell("dense", .erasedSubscribe), .finished(Rows.outcome([30, 30, 30]))),
      (cell("dense", .cancel, .fifo), .finished(Rows.outcome([6, 6, 6]))),
      (cell("dense", .cancel, .random), .finished(Rows.outcome([20, 20, 20]))),
      (cell("dense", .cancel, .lifo), .finished(Rows.outcome([5, 5, 5]))),
      (cell("dense", .churn), .finished(Rows.outcome([50, 50, 50]))),
    ])
    let ratios = try ReportReader.read(Rows.write(text)).filter { $0.cell.backend == "dense" }
      .map {
        "\($0.cell.workload.rawValue)/\($0.cell.pattern.rawValue)=\(csvNumber($0.ratioToLimit))"
      }
    // lifo has no limit cell in this run, and churn no limit at all: both stay empty.
    #expect(
      ratios == [
        "notify/-=1.5", "subscribe/-=2.5", "erased-subscribe/-=3", "cancel/fifo=1.5",
        "cancel/random=2.5", "cancel/lifo=", "churn/-=",
      ])
  }

  @Test("A cell that fails its self-check is invalid and carries no number")
  func invalidCell() throws {
    let text = Rows.report([
      (Rows.plan(), .finished(Rows.outcome([], problem: "expected 16 deliveries")))
    ])
    let row = try #require(try ReportReader.read(Rows.write(text)).first)
    #expect(row.status.name == "invalid" && row.nanoseconds == nil)
    #expect(row.status.reason.contains("expected 16 deliveries"))
  }

  @Test("Capped cells say so and carry no number")
  func cappedCell() throws {
    let text = Rows.report([(Rows.plan(n: 1_048_576), .timedOut), (Rows.plan(n: 4), nil)])
    let rows = try ReportReader.read(Rows.write(text))
    #expect(rows.map(\.status.name) == ["capped", "capped"])
    #expect(rows.allSatisfy { $0.nanoseconds == nil && $0.cost == nil })
  }

  @Test("Without jemalloc the memory columns stay empty and the status says why")
  func noJemalloc() throws {
    var outcome = Rows.outcome([1, 2, 3])
    outcome.memoryMeasured = false
    let text = Rows.report([(Rows.plan(), .finished(outcome))])
    let row = try #require(try ReportReader.read(Rows.write(text)).first)
    #expect(row.status.name == "ok-no-memory")
    #expect(row.allocationsPerOperation == nil && row.bytesPerOperation == nil)
    #expect(row.status.reason.contains("jemalloc"))
  }

  @Test("A region whose live bytes fell leaves its memory columns empty, so the report still reads")
  func negativeRetention() throws {
    var outcome = Rows.outcome([1, 2, 3])
    outcome.allocationsPerOperation = 2
    outcome.retainedBytesPerObserver = -145.571
    let text = Rows.report([(Rows.plan(workload: .subscribe), .finished(outcome))])
    let row = try #require(try ReportReader.read(Rows.write(text)).first)
    #expect(row.status.name == "ok-no-memory")
    #expect(row.allocationsPerOperation == nil && row.retainedBytesPerObserver == nil)
    #expect(row.status.reason.contains("live bytes fell by 146 per observer"))
    #expect(row.nanoseconds?.median == 2)
  }

  @Test("A cell's latencies are read as their median and 99th percentile")
  func latencies() throws {
    var outcome = Rows.outcome([100, 110, 120])
    outcome.latencyNanoseconds = [1_000, 2_000, 3_000]
    let text = Rows.report([(Rows.plan("reference-async-tasks"), .finished(outcome))])
    let row = try #require(try ReportReader.read(Rows.write(text)).first)
    #expect(row.latencyMedian == 2_000 && row.latencyP99 == 2_980)
    #expect(row.nanoseconds?.median == 110)
  }
}
