import ArrayBackend
import AsyncStreamBackend
import ObservationCore
import ObservationReports
import ReportFixtures
import SweepFixtures
import Testing

@testable import ObservationHarness
@testable import ObservationWorkloads

/// The asynchronous floor, `reference-async-tasks`: its loops do the work they stand for, its
/// self-check sees a lost or a doubled resumption, and an asynchronous backend reads its ratio
/// to the limit against it.
@Suite("Asynchronous limit row")
struct AsyncLimitRowTests {
  @Test(
    "Every write resumes each waiting task once, and the latency of each is kept",
    arguments: [1, 16, 1024])
  func notify(n: Int) {
    let sample = ReferenceDrivers.asyncTasksNotify(n: n, probe: MemoryProbe())
    #expect(sample.problem == nil)
    #expect(sample.operations == n * Drivers.writes(for: n))
    #expect(sample.latencies.count == Drivers.writes(for: n))
    #expect(sample.latencies.allSatisfy { $0 > 0 })
  }

  @Test("Every task started waits on its continuation", arguments: [1, 16, 1024])
  func subscribe(n: Int) {
    let sample = ReferenceDrivers.asyncTasksSubscribe(n: n, probe: MemoryProbe())
    #expect(sample.problem == nil)
    #expect(sample.operations == n * Drivers.batch(for: n))
  }

  @Test(
    "Every task ends in each pattern's order",
    arguments: [WorkloadPattern.fifo, .lifo, .random], [1, 16, 1024])
  func cancel(pattern: WorkloadPattern, n: Int) {
    let sample = ReferenceDrivers.asyncTasksCancel(
      n: n, pattern: pattern, seed: 0x5EED, probe: MemoryProbe())
    #expect(sample.problem == nil)
    #expect(sample.operations == n * Drivers.batch(for: n))
  }

  /// Task 0's first resumption goes unrecorded: a resumption lost.
  enum LosesOne: ResumptionRecording {
    static func record(_ value: Int, task: Int, in tally: ResumptionTally) {
      if task == 0 && value == 1 { return }
      tally.record(value, task: task)
    }
  }

  /// Task 0's first resumption is recorded twice: a resumption doubled.
  enum DoublesOne: ResumptionRecording {
    static func record(_ value: Int, task: Int, in tally: ResumptionTally) {
      if task == 0 && value == 1 { tally.record(value, task: task) }
      tally.record(value, task: task)
    }
  }

  /// Task 0 records 2 when resumed with 1: a resumption with the wrong value.
  enum MisreadsOne: ResumptionRecording {
    static func record(_ value: Int, task: Int, in tally: ResumptionTally) {
      tally.record(task == 0 && value == 1 ? 2 : value, task: task)
    }
  }

  @Test("The self-check fails a lost, a doubled or a misread resumption, and every task ends")
  func selfCheckCanFail() {
    let probe = MemoryProbe()
    let lost = ReferenceDrivers.asyncTasksNotify(n: 16, probe: probe, recording: LosesOne.self)
    #expect(lost.problem?.contains("observed 15999 summing") == true, "\(lost.problem ?? "")")
    let doubled = ReferenceDrivers.asyncTasksNotify(
      n: 16, probe: probe, recording: DoublesOne.self)
    #expect(
      doubled.problem?.contains("observed 16001 summing") == true, "\(doubled.problem ?? "")")
    let misread = ReferenceDrivers.asyncTasksSubscribe(
      n: 16, probe: probe, recording: MisreadsOne.self)
    #expect(misread.problem?.contains("1 tasks with another last value") == true)
    for problem in [lost.problem, doubled.problem, misread.problem] {
      #expect(problem?.contains("did not end") == false)
    }
    #expect(
      ReferenceDrivers.asyncTasksSubscribe(n: 16, probe: probe, recording: LosesOne.self)
        .problem?.contains("observed 4095 summing") == true)
  }

  @Test("An asynchronous backend reads its ratio against the asynchronous floor")
  func limitRows() {
    let asyncStream = MeasuredBackend(AsyncStreamStrategy())
    let array = MeasuredBackend(ArrayStrategy())
    #expect(asyncStream.limitRow == .asyncTasks)
    #expect(array.limitRow == .c)
    for reference in MeasuredBackend.references { #expect(reference.limitRow == .c) }
    #expect(MeasuredBackend.references.map(\.name) == ReferenceRow.names)
    #expect(
      MeasuredBackend.referenceAsyncTasks.onlyWorkloads == [.notify, .subscribe, .cancel])
    #expect(!MeasuredBackend.referenceAsyncTasks.deliversSynchronously)

    func cell(
      _ backend: String, _ workload: Workload, _ pattern: WorkloadPattern = .single
    )
      -> Cell
    {
      Cell(allocator: .jemalloc, backend: backend, workload: workload, pattern: pattern, n: 16)
    }
    let rows = [asyncStream, array] + MeasuredBackend.references
    let builder = ReportBuilder(environment: Rows.environment, rows: rows)
    let report = builder.report(
      [
        (cell("reference-c", .notify), .finished(Rows.outcome([2, 2, 2]))),
        (cell("reference-c", .cancel, .random), .finished(Rows.outcome([5, 5, 5]))),
        (cell("reference-async-tasks", .notify), .finished(Rows.outcome([100, 100, 100]))),
        (cell("reference-async-tasks", .subscribe), .finished(Rows.outcome([50, 50, 50]))),
        (cell("reference-async-tasks", .cancel, .random), .finished(Rows.outcome([40, 40, 40]))),
        (cell("async-stream", .notify), .finished(Rows.outcome([300, 300, 300]))),
        (cell("async-stream", .erasedNotify), .finished(Rows.outcome([400, 400, 400]))),
        (cell("async-stream", .subscribe), .finished(Rows.outcome([200, 200, 200]))),
        (cell("async-stream", .cancel, .random), .finished(Rows.outcome([60, 60, 60]))),
        (cell("array", .notify), .finished(Rows.outcome([4, 4, 4]))),
        (cell("array", .cancel, .random), .finished(Rows.outcome([10, 10, 10]))),
      ], largestFinished: [:])
    let ratios = report.results.map {
      "\($0.cell.backend) \($0.cell.workload.rawValue)=\(csvNumber($0.ratioToLimit))"
    }
    // The floor itself reads against the C limit, as every reference row does.
    #expect(
      ratios == [
        "reference-c notify=1", "reference-c cancel=1", "reference-async-tasks notify=50",
        "reference-async-tasks subscribe=", "reference-async-tasks cancel=8",
        "async-stream notify=3", "async-stream erased-notify=4", "async-stream subscribe=4",
        "async-stream cancel=1.5", "array notify=2", "array cancel=2",
      ])
    // Each result's kind is its row's.
    let kinds = Dictionary(rows.map { ($0.name, $0.kind) }, uniquingKeysWith: { a, _ in a })
    for result in report.results { #expect(result.rowKind == kinds[result.cell.backend]) }
    #expect(Set(report.results.map(\.rowKind)) == [.backend, .reference])
  }

  @Test("The asynchronous floor is in every sweep, but not in the instruction gate")
  func sweeps() {
    let plan = SweepPlan(
      rows: MeasuredRows(backends: []), everyWorkload: false,
      workloads: [.notify, .subscribe, .cancel], sizes: [16],
      depths: [], allocators: [.jemalloc], repetitions: 1)
    #expect(
      plan.cells.filter { $0.backend == "reference-async-tasks" }.map {
        "\($0.workload.rawValue)/\($0.pattern.rawValue)"
      } == ["notify/-", "subscribe/-", "cancel/fifo", "cancel/lifo", "cancel/random"])
    let gate = SweepPlan.instructionGate(of: MeasuredRows(backends: []))
    #expect(!gate.cells.contains { $0.backend == "reference-async-tasks" })
    #expect(gate.cells.contains { $0.backend == "reference-c" })
  }
}
