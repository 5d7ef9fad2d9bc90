import ObservationReports
import Testing

@testable import ObservationHarness

@Suite("The run's environment")
struct RunEnvironmentTests {
  /// The other half, a statically linked runtime read as `-static-stdlib`, is checked by CI on
  /// the release tool's own report (`.ci/run`, the quick sweep's `build` column).
  @Test("A process over the shared Swift runtime says so in its build's name")
  func sharedRuntime() {
    #expect(!RunEnvironment.linksSwiftRuntimeStatically)
    let build = RunEnvironment.current().build
    #expect(build == (RunEnvironment.isDebugBuild ? "debug" : "release"))
  }
}
