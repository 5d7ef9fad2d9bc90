import ObservationCore
import Synchronization
import Testing

@testable import ObservationConformance

/// A thread-safe value that declares asynchronous, serialized delivery and never calls an
/// observer: what THR-02 passed before it let an asynchronous backend's loop run, since no
/// callback, and so no overlap, was ever there to see.
private final class SilentObservers: ObservableValue, @unchecked Sendable {
  final class Token: ObservationToken {
    func cancel() {}
  }
  private let stored = Mutex(0)
  var value: Int {
    get { stored.withLock { $0 } }
    set { stored.withLock { $0 = newValue } }
  }
  func observe(_ handler: @escaping (Int) -> Void) -> Token { Token() }
}

private struct SilentBackend: ObservationBackend {
  var name: String { "silent" }
  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .asynchronousOrdered,
      [.deliversEveryValue, .threadSafe, .serializedDelivery], maxReentrancyDepth: .unbounded)
  }
  func makeSubject(initialValue: Int) -> SilentObservers {
    let subject = SilentObservers()
    subject.value = initialValue
    return subject
  }
}

@Suite("THR-02 earns its pass")
struct SilentBackendTests {
  @Test("A backend whose callbacks never run fails THR-02: no overlap was there to be seen")
  func noCallbackIsNoPass() throws {
    let rule = try #require(ConformanceSuite.rule("THR-02"))
    let outcome = ConformanceSuite.run(
      rule, on: SilentBackend(),
      configuration: ConformanceConfiguration(
        stochasticIterations: 2, timeout: 5))
    #expect(outcome.kind == .failed, "\(outcome.label): \(outcome.details)")
    #expect(outcome.details.contains("no callback ran"), "\(outcome.details)")
  }
}
