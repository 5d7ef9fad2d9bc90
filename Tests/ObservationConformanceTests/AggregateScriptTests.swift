import ObservationConformanceTesting
import ObservationCore
import Testing

@testable import ObservationConformance
@testable import conformance_fixtures

/// DIFF-01's aggregate scripts: two properties of one object whose callbacks write each other,
/// with observers of the object's will-change signal. Two objects that announce a queued write
/// wrongly fail DIFF-01 alone; the same object announcing every write in its `set` passes every
/// rule it declares, in process and isolated.
@Suite("DIFF-01 over two properties of one object and its will-change signal")
struct AggregateScriptTests {
  @Test(
    "An object that announces a write made from a callback when its queued delivery begins fails DIFF-01 alone, at the late signal"
  )
  func announcedOnItsTurn() async throws {
    let report = await FixtureReports.report(AggregateBackend(announcing: .onItsTurn))
    #expect(report.failures.map(\.rule.id) == ["DIFF-01"])
    let details = try #require(report.outcome(of: "DIFF-01")).details
    #expect(details.contains("over properties A and B of one object"), "\(details)")
    // The queued write's `set` returned unannounced: the first step no choice explains.
    #expect(details.contains("as its set begins"), "\(details)")
    #expect(details.contains("observed: set returned first"), "\(details)")
    for id: RuleID in ["TIM-03", "AGG-01", "AGG-02", "REE-06"] {
      #expect(report.outcome(of: id)?.kind == .passed, "\(id)")
    }
  }

  @Test(
    "An object that announces only top-level writes fails DIFF-01 alone, at the write its callback made"
  )
  func announcedOutermostOnly() async throws {
    let report = await FixtureReports.report(AggregateBackend(announcing: .outermostOnly))
    #expect(report.failures.map(\.rule.id) == ["DIFF-01"])
    let details = try #require(report.outcome(of: "DIFF-01")).details
    #expect(details.contains("as its set begins"), "\(details)")
    #expect(
      details.contains("fires once per mutation, before the property observers (AGG-01)"),
      "\(details)")
  }

  @Test(
    "The object announcing every write in its set passes every rule it declares, in process and isolated, with DIFF-01's aggregate scripts run"
  )
  func correctObjectPasses() async throws {
    let backend = AggregateBackend(announcing: .inTheSet)
    let report = await FixtureReports.report(backend)
    #expect(report.failures.map(\.rule.id) == [])
    let details = try #require(report.outcome(of: "DIFF-01")).details
    #expect(
      details.contains("over two properties of one object and observers of its will-change signal"),
      "\(details)")
    let runner = try IsolatedConformanceRunner(
      executable: IsolatedConformanceRunner.executableBuiltBesideTests(
        named: "conformance-fixtures"))
    let isolated = try runner.run(backendName: backend.name, capabilities: backend.capabilities)
    #expect(isolated.failures.map(\.rule.id) == [])
    #expect(isolated.outcome(of: "DIFF-01")?.kind == .passed)
  }

  typealias Event = DifferentialScript.Event

  /// A record of one write to A with #1 observing the signal, the signal reading `read`.
  static func record(signalReading read: Int) -> [Event] {
    [
      .observeStarted(1), .observeReturned(1), .write(5),
      .willChange(observer: 1, a: read, b: 0), .writeReturned, .read(5),
    ]
  }

  @Test(
    "The signal's check passes a signal in the set before the store, and names TIM-03 for one after it"
  )
  func readInsideTheSignal() throws {
    #expect(
      ObjectSignalHistory.violation(in: Self.record(signalReading: 0), objectObservers: [1]) == nil)
    let late = try #require(
      ObjectSignalHistory.violation(in: Self.record(signalReading: 5), objectObservers: [1]))
    #expect(late.index == 3)
    #expect(late.expected == "A does not read 5 yet inside the signal for set A = 5")
    #expect(late.sentence.hasSuffix("(TIM-03)"))
  }

  @Test(
    "The signal's check names CAN-01 for a signal after the cancel returned, and AGG-01 for one with no write just made"
  )
  func signalsOutOfPlace() throws {
    let afterCancel: [Event] = [
      .observeStarted(1), .observeReturned(1), .cancelStarted(1, inCallback: false),
      .cancelReturned(1), .write(5), .willChange(observer: 1, a: 0, b: 0), .writeReturned,
    ]
    let cancelled = try #require(
      ObjectSignalHistory.violation(in: afterCancel, objectObservers: [1]))
    #expect(cancelled.sentence.hasSuffix("(CAN-01)"))
    let twice: [Event] = [
      .observeStarted(1), .observeReturned(1), .write(5), .willChange(observer: 1, a: 0, b: 0),
      .callback(observer: 2, value: 5), .willChange(observer: 1, a: 5, b: 0), .writeReturned,
    ]
    let again = try #require(ObjectSignalHistory.violation(in: twice, objectObservers: [1]))
    #expect(again.index == 5)
    #expect(again.sentence.hasSuffix("(AGG-01)"))
  }
}
