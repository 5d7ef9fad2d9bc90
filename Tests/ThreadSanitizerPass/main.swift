// The concurrency rules on every built-in backend that declares threadSafe, for the thread
// sanitizer. `.ci/run` builds this executable alone with `--sanitize=thread` (the backends,
// OpenCombine and the suite: 41 s here, against 175 s for every test target) and runs it; it
// exits 1 if a rule's outcome disagrees with the committed matrix, and the sanitizer's runtime
// makes it fail on a data race it reports.
//
// Each THR rule runs as SanitizerRuns says: at ConformanceConfiguration's
// concurrencyProbeIterations instead of 459, and a rule pinned as failing may pass in fewer
// iterations (its fault is rare); one pinned as passing must pass. The tests without a
// sanitizer hold every rule at full strength to the same matrix.
import Dispatch
import Foundation
import ObservationBackends
import ObservationConformance
import ObservationCore
import Synchronization

/// The pass: every concurrency rule on every thread-safe built-in backend, two at a time.
enum ThreadSanitizerPass {
  static let matrixURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // ThreadSanitizerPass
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
    .appendingPathComponent("Results/conformance.csv")

  /// Runs the pass and returns what disagrees with the matrix, and how many runs were made.
  static func run() throws -> (disagreements: [String], runs: Int, backends: Int) {
    let rows = try ConformanceMatrix.rows(fromCSV: String(contentsOf: matrixURL, encoding: .utf8))
    let pinned = Dictionary(
      uniqueKeysWithValues: rows.map { ("\($0.rule) on \($0.backend)", $0.outcome) })
    let backends = BackendCatalog.all.filter { $0.capabilities.has(.threadSafe) }
    let rules = ConformanceSuite.rules.filter { $0.traits.contains(.concurrent) }
    let cases = Cases(value: backends.flatMap { backend in rules.map { (backend, $0) } })
    let disagreements = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: cases.value.count) { index in
      let (backend, rule) = cases.value[index]
      let key = "\(rule.id) on \(backend.name)"
      let outcome = ConformanceSuite.run(
        rule, on: backend, configuration: SanitizerRuns.configuration)
      guard let expected = pinned[key] else {
        disagreements.withLock { $0.append("\(key): no outcome in \(matrixURL.path)") }
        return
      }
      if !SanitizerRuns.agrees(outcome.kind, for: rule, with: expected) {
        disagreements.withLock {
          $0.append("\(key): pinned \(expected.rawValue), got \(outcome.label): \(outcome.details)")
        }
      }
    }
    return (disagreements.withLock { $0 }, cases.value.count, backends.count)
  }

  /// The (backend, rule) pairs, read from the pass's threads and never written: the backends
  /// are the catalogue's descriptors, which hold no state, and each run makes subjects of its
  /// own.
  struct Cases: @unchecked Sendable {
    let value: [(any ObservationBackend, ConformanceRule)]
  }
}

do {
  let result = try ThreadSanitizerPass.run()
  if result.backends == 0 {
    print("no built-in backend declares threadSafe")
    exit(1)
  }
  if !result.disagreements.isEmpty {
    print(result.disagreements.joined(separator: "\n"))
    exit(1)
  }
  print(
    "\(result.runs) concurrency rule runs on \(result.backends) thread-safe backends agree with"
      + " \(ThreadSanitizerPass.matrixURL.lastPathComponent)")
} catch {
  print("cannot read \(ThreadSanitizerPass.matrixURL.path): \(error)")
  exit(1)
}
