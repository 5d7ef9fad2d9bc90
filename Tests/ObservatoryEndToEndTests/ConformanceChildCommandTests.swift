import Foundation
import ObservationBackends
import ObservationConformanceTesting
import ObservationCore
import TestTraits
import Testing

@testable import ObservationConformance

/// The tool's side of an isolated conformance run: `observatory conformance-child` as the
/// child harness of the built-in backends, and `observatory conformance --rule-timeout`. The
/// runner itself is tested with the fixtures' harness, in `ObservationConformanceTests`.
@Suite(
  "The tool runs conformance children",
  .notUnderAddressSanitizer(
    "the children are processes of the tool, whose rules the conformance tests run in process"))
struct ConformanceChildCommandTests {
  @Test("An isolated run through `observatory conformance-child` gives the in-process report")
  func sameAsInProcess() throws {
    let linkedList = try #require(BackendCatalog.backend(named: "linked-list"))
    let inProcess = ConformanceSuite.run(linkedList)
    let runner = try IsolatedConformanceRunner(
      executable: IsolatedConformanceRunner.executableBuiltBesideTests(named: "observatory"),
      arguments: [ConformanceChildRequest.subcommand])
    let report = try runner.run(linkedList)
    #expect(report.backendName == inProcess.backendName)
    #expect(report.capabilities == inProcess.capabilities)
    #expect(report.results.map(\.rule.id) == inProcess.results.map(\.rule.id))
    #expect(report.failures.isEmpty, "\(report.failures.map(\.rule.id))")
    for (isolated, direct) in zip(report.results, inProcess.results) {
      let id = isolated.rule.id
      if ConformanceSuite.isChildProcessProbe(isolated.rule, for: linkedList.capabilities) {
        // n/a in process, where concurrent use of a backend not declaring threadSafe is not
        // made; a probe, either way, in its own child.
        #expect(direct.outcome.kind == .notApplicable, "\(id)")
        #expect(
          isolated.outcome.kind.isProbe,
          "\(id): \(isolated.outcome.label)")
      } else if id == "META-01" {
        // Its prose names what the THR probes observed.
        #expect(isolated.outcome.kind == direct.outcome.kind, "\(isolated.outcome.details)")
      } else {
        #expect(isolated.outcome == direct.outcome, "\(id)")
      }
    }
  }
}
