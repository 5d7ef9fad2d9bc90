import ObservationWorkloads
import Testing

@testable import ObservationHarness

@Suite("Cell policy")
struct CellPolicyTests {
  @Test("The sweep's rules answer from one place")
  func policy() {
    #expect(CellPolicy.repetitions(9, n: 1024) == 9)
    #expect(CellPolicy.repetitions(9, n: CellPolicy.largeSize) == 2)
    #expect(CellPolicy.skipsWarmUp(n: CellPolicy.largeSize) && !CellPolicy.skipsWarmUp(n: 1024))
    #expect(CellPolicy.isCapped(measured: 2, requested: 9))
    #expect(!CellPolicy.isCapped(measured: 2, requested: 2))
    #expect(Workload.churn.minimumOperations(n: 1 << 20) == Drivers.fewestChurnSteps)
    #expect(Workload.notify.minimumOperations(n: 1024) == 1024)
    #expect(CellPolicy.hardLimit(budget: 1) > 1)
    #expect(CellPolicy.skips(projectedSeconds: 2, budget: 1))
    #expect(!CellPolicy.skips(projectedSeconds: 1.2, budget: 1))
  }
}
