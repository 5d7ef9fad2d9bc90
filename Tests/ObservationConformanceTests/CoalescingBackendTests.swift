import ObservationConformance
import ObservationCore
import Testing

/// A correct backend that coalesces writes, as `Observations` does, through the rules that
/// wait for deliveries.
@Suite("A backend that coalesces writes")
struct CoalescingBackendTests {
  /// THR-01 once waited for one callback per write, which a coalescing backend never makes:
  /// 10 s per iteration, so that the `Observations` probe (50 iterations) was killed as a hang.
  /// Every observer holding the writers' last value is what settles such a backend.
  @Test("THR-01 settles once every observer has the last value, not after 10 s per iteration")
  func concurrentSetsSettleOnTheLastValue() throws {
    let rule = try #require(ConformanceSuite.rule("THR-01"))
    let start = ContinuousClock.now
    let outcome = ConformanceSuite.run(
      rule, on: CoalescingBackend(),
      configuration: ConformanceConfiguration(stochasticIterations: 5))
    let elapsed = ContinuousClock.now - start
    #expect(outcome.kind == .passed, "\(outcome.details)")
    #expect(elapsed < .seconds(10), "\(elapsed)")
  }
}
