import ObservationBackends
import ObservationConformance
import ObservationConformanceTesting
import ObservationCore
import Testing

/// The concurrency rules alone, for the thread sanitizer: `.ci/run` runs this suite with
/// `swift test --sanitize=thread --filter ThreadSafetyRules`.
///
/// Without the thread sanitizer it would repeat what "Backends on libraries we do not control"
/// checks in the same run (the same rules on the same backends, against the same pinned
/// outcomes): it runs only under the sanitizer, each rule at a sanitizer's iterations
/// (``SanitizerPass``).
@Suite(
  "Thread-safety rules",
  .enabled(
    if: Sanitizer.thread,
    Comment(
      rawValue:
        "runs under the thread sanitizer (swift test --sanitize=thread); without it, the pinned"
        + " outcomes of the built-in backends check these rules")))
struct ThreadSafetyRules {
  static let threadSafeBackends = BackendCatalog.all.filter { $0.capabilities.has(.threadSafe) }
    .map(\.name)
  static let rules = ConformanceSuite.rules.filter { $0.traits.contains(.concurrent) }

  @Test("THR rules on every backend that declares threadSafe", arguments: threadSafeBackends, rules)
  func threadSafety(_ name: String, _ rule: ConformanceRule) throws {
    try SanitizerPass.check(rule, onBackendNamed: name)
  }

  @Test("At least one built-in backend exercises the concurrency rules")
  func someBackendIsThreadSafe() {
    #expect(!Self.threadSafeBackends.isEmpty)
  }
}
