import ObservationBackends
import ObservationConformance
import ObservationConformanceTesting
import ObservationCore
import Testing

/// The concurrency rules alone, for the thread sanitizer: `.ci/run` runs this suite with
/// `swift test --sanitize=thread --filter ThreadSafetyRules`.
@Suite("Thread-safety rules")
struct ThreadSafetyRules {
  static let threadSafeBackends = BackendCatalog.all.filter { $0.capabilities.has(.threadSafe) }
    .map(\.name)
  static let rules = ConformanceSuite.rules.filter { $0.group == "THR" }

  @Test("THR rules on every backend that declares threadSafe", arguments: threadSafeBackends, rules)
  func threadSafety(_ name: String, _ rule: ConformanceRule) throws {
    let backend = try #require(BackendCatalog.backend(named: name))
    let expected = try PinnedOutcomes.expected(rule, on: backend)
    let outcome = ConformanceSuite.run(rule, on: backend)
    #expect(outcome.kind == expected, "\(rule.id) on \(name): \(outcome.details)")
  }

  @Test("At least one built-in backend exercises the concurrency rules")
  func someBackendIsThreadSafe() {
    #expect(!Self.threadSafeBackends.isEmpty)
  }
}
