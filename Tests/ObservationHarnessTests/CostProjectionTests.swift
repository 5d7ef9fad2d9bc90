import Testing

@testable import ObservationHarness

@Suite("Cost projection")
struct CostProjectionTests {
  @Test("Nothing is projected before a size is measured")
  func empty() {
    #expect(
      CostProjection().projectedSeconds(n: 1024, repetitions: 9, minimumOperations: 1024) == nil)
  }

  @Test("A per-operation cost that grows with n is carried to the next size")
  func linearPerOperationCost() throws {
    var projection = CostProjection()
    // An O(n) cancel: 1 µs per operation at 1,024 observers, 4 µs at 4,096.
    projection.record(n: 1024, secondsPerRepetition: 0.004, nanosecondsPerOperation: 1000)
    projection.record(n: 4096, secondsPerRepetition: 0.016, nanosecondsPerOperation: 4000)
    let seconds = try #require(
      projection.projectedSeconds(n: 65536, repetitions: 2, minimumOperations: 65536))
    // 64 µs per operation × 65,536 operations × 2 repetitions.
    #expect(abs(seconds - 64e-6 * 65536 * 2) < 0.01)
  }

  @Test("A flat per-operation cost projects by set-up time, linearly in n")
  func flatPerOperationCost() throws {
    var projection = CostProjection()
    projection.record(n: 1024, secondsPerRepetition: 0.010, nanosecondsPerOperation: 50)
    projection.record(n: 4096, secondsPerRepetition: 0.020, nanosecondsPerOperation: 50)
    let seconds = try #require(
      projection.projectedSeconds(n: 65536, repetitions: 2, minimumOperations: 65536))
    #expect(abs(seconds - 0.020 * 16 * 2) < 1e-9)
  }

  @Test("Small sizes, where fixed costs dominate, do not set the growth")
  func smallSizesIgnored() {
    var projection = CostProjection()
    projection.record(n: 1, secondsPerRepetition: 0.001, nanosecondsPerOperation: 10)
    projection.record(n: 16, secondsPerRepetition: 0.001, nanosecondsPerOperation: 1000)
    #expect(projection.projectedSeconds(n: 256, repetitions: 9, minimumOperations: 256) == nil)
  }
}
