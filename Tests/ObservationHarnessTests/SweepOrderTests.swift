import Testing

@testable import ObservationHarness

@Suite("Sweep order")
struct SweepOrderTests {
  @Test("Series are taken in turn, one size each, and each series' sizes keep their order")
  func seriesTakeTurns() {
    let plans =
      [1, 16, 256].map { Cell(allocator: .system, backend: "a", workload: .notify, n: $0) }
      + [1, 16].map { Cell(allocator: .system, backend: "b", workload: .notify, n: $0) }
      + [1, 16, 256, 4096].map {
        Cell(allocator: .system, backend: "a", workload: .subscribe, n: $0)
      }
    let order = Sweep.executionOrder(of: plans)
    #expect(order.sorted() == Array(plans.indices), "every plan runs once")
    let ran = order.map { "\(plans[$0].backend) \(plans[$0].workload.rawValue) \(plans[$0].n)" }
    #expect(
      ran == [
        "a notify 1", "b notify 1", "a subscribe 1",
        "a notify 16", "b notify 16", "a subscribe 16",
        "a notify 256", "a subscribe 256",
        "a subscribe 4096",
      ])
  }
}
