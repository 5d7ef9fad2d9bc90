import ArgumentParser
import ObservationBackends
import ObservationConformance
import ObservationHarness

/// `observatory conformance-child`: runs one built-in backend's conformance rules in this
/// process and streams each rule's start and outcome to standard output, for `conformance`,
/// which starts one such process per backend (and another after a rule crashes or hangs).
struct ConformanceChildCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "conformance-child",
    abstract: "Run one backend's conformance rules and stream their outcomes (used by"
      + " `conformance`).",
    shouldDisplay: false)

  @Option(help: "The backend's name.") var backend: String

  @Option(
    name: .customLong(String(ConformanceChildRequest.fromOption.dropFirst(2))),
    help: "The rule to start from, in the order the suite evaluates rules.")
  var firstRule: String?

  @Option(
    name: .customLong(String(ConformanceChildRequest.parentOption.dropFirst(2))),
    help: "The process id of the `conformance` that started this child: end when it ends.")
  var parent: Int32?

  @Flag(
    name: .customLong(String(ConformanceChildRequest.knownOutcomesFlag.dropFirst(2))),
    help: "Read the outcomes an earlier child reported from standard input.")
  var readsKnownOutcomes = false

  func run(with tool: Tool) throws {
    let known = tool.backends
    guard let entry = known.row(named: backend)?.backend else {
      throw ValidationError(
        "unknown backend '\(backend)'; accepted: \(known.map(\.name).joined(separator: ", "))")
    }
    let request = ConformanceChildRequest(
      firstRule: firstRule, parentProcess: parent, readsKnownOutcomes: readsKnownOutcomes)
    do {
      try ConformanceChild.run(entry, request: request)
    } catch let error as ConformanceIsolationError {
      throw ToolError(error.description)
    }
  }
}
