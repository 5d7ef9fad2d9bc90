import DenseBackend
import Foundation
import ObservationBackends
import ObservationCore
import ObservatoryBuiltInRows
import ReportFixtures
import SweepFixtures
import Synchronization
import Testing

@testable import ObservationHarness
@testable import ObservationReports
@testable import ObservationWorkloads

/// A lock-protected observer list declared thread-safe, with a fault that only another thread
/// shows: what the contended workloads' own checks exist for.
private final class ThreadConfinedObservers: ObservableValue, @unchecked Sendable {
  enum Fault {
    /// A write made on a thread other than the subject's is stored and never delivered.
    case dropsOtherThreadsWrites
    /// A cancellation made on a thread other than the subject's does nothing.
    case ignoresOtherThreadsCancels
  }

  final class Token: ObservationToken {
    let cancelling: () -> Void
    init(_ cancelling: @escaping () -> Void) { self.cancelling = cancelling }
    func cancel() { cancelling() }
  }

  /// A handler, kept under the lock and called outside it on whichever thread writes: the
  /// workloads' callbacks are thread-safe, as the backend declares.
  struct Handler: @unchecked Sendable {
    let call: (Int) -> Void
  }

  private let state = Mutex<(value: Int, handlers: [Int: Handler], next: Int)>((0, [:], 0))
  private let owner = pthread_self()
  private let fault: Fault

  init(fault: Fault) { self.fault = fault }

  private var onOwner: Bool { pthread_equal(pthread_self(), owner) != 0 }

  var value: Int {
    get { state.withLock { $0.value } }
    set {
      let handlers = state.withLock { state in
        state.value = newValue
        return Array(state.handlers.values)
      }
      if fault == .dropsOtherThreadsWrites && !onOwner { return }
      for handler in handlers { handler.call(newValue) }
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    let id = state.withLock { state in
      state.next += 1
      state.handlers[state.next] = Handler(call: handler)
      return state.next
    }
    return Token { [self] in
      if fault == .ignoresOtherThreadsCancels && !onOwner { return }
      _ = state.withLock { $0.handlers.removeValue(forKey: id) }
    }
  }
}

private struct ThreadConfinedBackend: ObservationBackend {
  let fault: ThreadConfinedObservers.Fault
  var name: String { "thread-confined" }
  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet, [.deliversEveryValue, .synchronousDelivery, .threadSafe],
      maxReentrancyDepth: .bounded(0))
  }
  func makeSubject(initialValue: Int) -> ThreadConfinedObservers {
    let subject = ThreadConfinedObservers(fault: fault)
    subject.value = initialValue
    return subject
  }
}

@Suite("Contended workloads")
struct ContendedWorkloadTests {
  static let scale = WorkScale(1.0 / 64)

  @Test("Every thread's every write reaches every observer, and is counted per delivery")
  func notifyDelivers() {
    let sample = Drivers.run(
      WorkloadCase(.contendedNotify, n: 16, threads: 4), on: SynchronizedDenseStrategy(),
      probe: MemoryProbe(), scale: Self.scale)
    #expect(sample.problem == nil)
    let writes = Drivers.contendedWrites(for: 16, scale: Self.scale) / 4
    #expect(sample.operations == writes * 4 * 16)
    #expect(sample.nanoseconds > 0)
  }

  @Test("A cancellation under contention removes its observer: one write reaches n after")
  func churnCancels() {
    let sample = Drivers.run(
      WorkloadCase(.contendedChurn, n: 16, threads: 2), on: SynchronizedDenseStrategy(),
      probe: MemoryProbe(), scale: Self.scale)
    #expect(sample.problem == nil)
    #expect(sample.operations == Drivers.contendedChurnSteps(scale: Self.scale) / 2 * 2)
  }

  @Test("contended-notify fails a backend that loses the other threads' writes")
  func notifyCatchesLostWrites() throws {
    let sample = Drivers.run(
      WorkloadCase(.contendedNotify, n: 4, threads: 2),
      on: ThreadConfinedBackend(fault: .dropsOtherThreadsWrites), probe: MemoryProbe(),
      scale: Self.scale)
    let problem = try #require(sample.problem)
    #expect(problem.contains("thread 0 of 2") && problem.contains("observed 0"), "\(problem)")
  }

  @Test("contended-churn fails a backend whose cancellations on other threads do nothing")
  func churnCatchesIgnoredCancels() throws {
    let sample = Drivers.run(
      WorkloadCase(.contendedChurn, n: 4, threads: 2),
      on: ThreadConfinedBackend(fault: .ignoresOtherThreadsCancels), probe: MemoryProbe(),
      scale: Self.scale)
    let problem = try #require(sample.problem)
    #expect(problem.contains("should reach the 4 standing observers"), "\(problem)")
  }

  @Test("A backend that does not declare threadSafe is n/a on a contended workload, with why")
  func inapplicable() throws {
    let rows = MeasuredBackend.builtIns
    let linkedList = try #require(rows.row(named: "linked-list"))
    let reason = try #require(linkedList.reasonNotMeasured(on: .contendedNotify))
    #expect(reason.contains("does not declare threadSafe"))
    #expect(linkedList.reasonNotMeasured(on: .notify) == nil)
    #expect(rows.row(named: "dense-synchronized")?.reasonNotMeasured(on: .contendedChurn) == nil)
    // The cell process refuses it too, so that `cell` run by hand measures no undefined
    // behaviour.
    let outcome = try #require(
      CellExecution.run(
        CellRequest(
          backend: "linked-list", workload: .contendedNotify, n: 16, threads: 2, repetitions: 1,
          budget: 1, seed: 0),
        among: rows))
    #expect(outcome.problem == reason)
    let text = Rows.report([
      (
        Cell(
          allocator: .jemalloc, backend: "linked-list", workload: .contendedNotify, n: 16,
          threads: 2),
        .notApplicable(reason)
      )
    ])
    let row = try #require(try ReportReader.read(Rows.write(text)).first)
    #expect(row.status == .notApplicable(reason: reason) && row.cell.threads == 2)
  }

  @Test("A plan measures the contended workloads at their sizes with every thread count")
  func plan() {
    let rows = MeasuredBackend.builtIns.filter { $0.name == "dense-synchronized" }
    let plan = SweepPlan(
      rows: MeasuredRows(backends: rows), everyWorkload: true,
      workloads: [.notify, .contendedNotify], sizes: [1, 256],
      depths: [3], contendedSizes: [16], threads: [1, 4], allocators: [.system], repetitions: 1)
    let cells = plan.cells.filter { $0.backend == "dense-synchronized" }
    #expect(cells.filter { $0.workload == .notify }.map(\.n) == [1, 256])
    #expect(cells.filter { $0.workload == .notify }.allSatisfy { $0.threads == 1 })
    let contended = cells.filter { $0.workload == .contendedNotify }
    #expect(contended.map(\.n) == [16, 16] && contended.map(\.threads) == [1, 4])
    #expect(Set(contended.map(\.key)).count == 2)
    #expect(contended[0].key == "system/dense-synchronized/contended-notify/-/16/0")
    #expect(contended[1].key == "system/dense-synchronized/contended-notify/-/16/0/4")
  }

  @Test("A cell request carries its threads, and only a contended workload takes several")
  func request() throws {
    var request = CellRequest(
      Cell(
        allocator: .system, backend: "dense-synchronized", workload: .contendedChurn, n: 16,
        threads: 8), repetitions: 3, budget: 1)
    #expect(try CellRequest(arguments: request.arguments) == request)
    request.threads = 1
    #expect(!request.arguments.contains("--threads"))
    request.workload = .notify
    request.threads = 2
    #expect(throws: CellRequestError.self) { try CellRequest(arguments: request.arguments) }
    do { _ = try CellRequest(arguments: request.arguments) } catch {
      #expect("\(error)".contains("--threads 2 goes with a contended workload"))
    }
  }

  @Test("A schema 2 report reads as one thread per cell, and compares with a current one")
  func olderSchema() throws {
    let current = Rows.report([(Rows.plan(), .finished(Rows.outcome([10, 11, 12])))])
    #expect(current.hasPrefix("schema,") && current.contains(",threads,"))
    let rows = try ReportReader.read(Rows.write(current))
    #expect(rows[0].schema == ReportSchema.version && rows[0].cell.threads == 1)
    let older = Rows.csv(rows, asSchema: "2")
    #expect(!older.contains("threads"))
    let read = try ReportReader.read(Rows.write(older))
    #expect(read[0].schema == "2" && read[0].cell.threads == 1 && read[0].cell == rows[0].cell)
    let comparison = try Comparison(base: read, candidate: rows, threshold: 0.05)
    #expect(comparison.cells.count == 1)
    #expect(ReportSchema.measuresAlike("2", "3") && !ReportSchema.measuresAlike("1", "3"))
  }
}

@Suite("Delivery latency")
struct DeliveryLatencyTests {
  @Test("An asynchronous backend's notify times each write until its last callback")
  func asynchronous() throws {
    let backend = try #require(BackendCatalog.all.first { $0.name == "async-stream" })
    let sample = Drivers.run(
      WorkloadCase(.notify, n: 16), on: backend, probe: MemoryProbe(), scale: WorkScale(1.0 / 16))
    #expect(sample.problem == nil)
    #expect(sample.latencies.count == Drivers.writes(for: 16, scale: WorkScale(1.0 / 16)))
    #expect(sample.latencies.allSatisfy { $0 > 0 }, "\(sample.latencies.prefix(10))")
  }

  @Test("The report gives the latencies' median and 99th percentile, and reads them back")
  func reported() throws {
    var outcome = Rows.outcome([10, 11, 12])
    outcome.latencyNanoseconds = (1...100).map { Double($0) }.shuffled()
    let text = Rows.report([(Rows.plan("async-stream"), .finished(outcome))])
    let row = try #require(try ReportReader.read(Rows.write(text)).first)
    #expect(row.latencyMedian == 50.5)
    #expect(row.latencyP99.map(csvNumber) == "99.01")
    // A synchronous backend's cell has none.
    let plain = Rows.report([(Rows.plan(), .finished(Rows.outcome([10, 11, 12])))])
    let read = try #require(try ReportReader.read(Rows.write(plain)).first)
    #expect(read.latencyMedian == nil && read.latencyP99 == nil)
  }
}
