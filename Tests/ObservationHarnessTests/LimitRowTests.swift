import CReference
import ObservationReports
import Testing

@testable import ObservationHarness
@testable import ObservationWorkloads

/// The C limit rows of subscribe and cancel do the work they stand for, and their self-check
/// sees when a map does not hold what it should.
@Suite("Limit rows of subscribe and cancel")
struct LimitRowTests {
  @Test(
    "The slot map subscribes every observer, and a write reaches each once",
    arguments: [1, 16, 1024])
  func subscribe(n: Int) {
    let sample = ReferenceDrivers.cSlotMapSubscribe(n: n, probe: MemoryProbe())
    #expect(sample.problem == nil)
    #expect(sample.operations == n * Drivers.batch(for: n))
  }

  @Test(
    "The slot map cancels every observer in each pattern's order",
    arguments: [WorkloadPattern.fifo, .lifo, .random], [1, 16, 1024])
  func cancel(pattern: WorkloadPattern, n: Int) {
    let sample = ReferenceDrivers.cSlotMapCancel(
      n: n, pattern: pattern, seed: 0x5EED, probe: MemoryProbe())
    #expect(sample.problem == nil)
    #expect(sample.operations == n * Drivers.batch(for: n))
  }

  @Test("The self-check fails a map that lost, kept or misdelivered an observer")
  func selfCheckCanFail() throws {
    let maps = ReferenceDrivers.SlotMaps(count: 2, capacity: 4)
    defer { maps.destroy() }
    try #require(maps.ready)
    #expect(maps.observers == 8)
    #expect(maps.subscribeEvery() == 8)
    #expect(maps.check(subscribed: 8, expected: 8) == nil)
    // A full map refuses more, and the check names the shortfall.
    #expect(
      observatory_slot_map_subscribe(
        maps.map(0), 1, observatory_accumulate_through, maps.accumulator, maps.handles(of: 0))
        == 0)
    #expect(maps.check(subscribed: 7, expected: 8)?.contains("subscribed 7 of 8") == true)
    // Observers left behind after "every observer was cancelled".
    let order: [UInt32] = [2, 0]
    observatory_slot_map_cancel(maps.map(0), maps.handles(of: 0), order, 2)
    #expect(maps.check(subscribed: 0, expected: 0)?.contains("the maps hold 6") == true)
    // An observer whose context points elsewhere: the write's sum comes up short.
    let elsewhere = UnsafeMutablePointer<Int64>.allocate(capacity: 1)
    defer { elsewhere.deallocate() }
    elsewhere.initialize(to: 0)
    let context = maps.map(1).pointee.observers[0].context!
    context.assumingMemoryBound(to: observatory_context.self).pointee.target = elsewhere
    #expect(maps.check(subscribed: 6, expected: 6)?.contains("summed to 5") == true)
  }

  @Test("Subscribe's and cancel's ratio to the limit is in the sweep: reference-c measures both")
  func referenceCMeasuresTheHeadlineWorkloads() {
    let plan = SweepPlan(
      rows: MeasuredRows(backends: []), everyWorkload: false, workloads: [.subscribe, .cancel],
      sizes: [16], depths: [],
      allocators: [.jemalloc], repetitions: 1)
    let referenceC = plan.cells.filter { $0.backend == MeasuredBackend.referenceC.name }
    #expect(
      referenceC.map { "\($0.workload.rawValue)/\($0.pattern.rawValue)" } == [
        "subscribe/-", "cancel/fifo", "cancel/lifo", "cancel/random",
      ])
  }
}
