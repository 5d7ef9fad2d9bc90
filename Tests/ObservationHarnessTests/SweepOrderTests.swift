import ObservationWorkloads
import Testing

@testable import ObservationHarness
@testable import ObservationReports

@Suite("The order a timed sweep measures its cells in")
struct SweepOrderTests {
  static let plans: [Cell] = ["linked-list", "array", "key-path"].flatMap { backend in
    [Workload.notify, .subscribe].flatMap { workload in
      [1, 16, 256, 4096].map { n in
        Cell(allocator: .jemalloc, backend: backend, workload: workload, n: n)
      }
    }
  }

  @Test(
    "The first round runs every cell once, size by size, shuffled within a size, the same in every run"
  )
  func firstRound() {
    var generator = SplitMix64(seed: 0x5EED)
    let order = Sweep.firstRound(of: Self.plans, using: &generator)
    #expect(order.sorted() == Array(Self.plans.indices))
    let sizes = order.map { Self.plans[$0].n }
    #expect(sizes == sizes.sorted(), "each series must meet its sizes in increasing order")
    // Shuffled: the cells of one size are not in the plan's order (one backend's cells
    // together), which is what a busy moment would then fall on.
    let firstSize = order.prefix { Self.plans[$0].n == 1 }
    #expect(firstSize.count == 6)
    #expect(Array(firstSize) != firstSize.sorted())
    var again = SplitMix64(seed: 0x5EED)
    #expect(Sweep.firstRound(of: Self.plans, using: &again) == order)
  }
}
