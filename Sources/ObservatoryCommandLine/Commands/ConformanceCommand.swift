import ArgumentParser
import Foundation
import ObservationBackends
import ObservationConformance
import ObservationCore
import ObservationHarness
import Synchronization

/// `observatory conformance`: runs the conformance suite over the built-in backends.
struct ConformanceCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "conformance",
    abstract: "Run the conformance suite over the built-in backends and print or write the matrix.",
    discussion: """
      Exits non-zero if a backend written in this package fails a rule it declares. \
      Backends built on other libraries (OpenCombine) may fail rules: those failures are \
      findings and are shown in the matrix.

      Each backend's rules run in a child process of this tool (`conformance-child`), so \
      that a rule that traps, overflows the stack or deadlocks is reported as `crashed \
      (signal N)` or `timed out after T s` and every other rule still runs; --in-process \
      runs them here.
      """)

  @Option(
    name: .long, help: "Only these backends (comma-separated names).",
    transform: BackendSelection.parse)
  var backend: CommaSeparated<String>?

  @Option(
    name: .long,
    help:
      "Directory to write conformance.md and conformance.csv into (both or neither). Prints Markdown to stdout when absent."
  )
  var outputDirectory: String?

  @Option(
    name: .long,
    help: "markdown or json, printed to standard output when --output-directory is absent.")
  var format: MatrixFormat = .markdown

  /// How `conformance` prints the matrix.
  enum MatrixFormat: String, CaseIterable, ExpressibleByArgument {
    /// The committed `conformance.md`.
    case markdown
    /// JSON: every rule's outcome per backend, for CI tools.
    case json
  }

  @Flag(name: .long, help: "Replace conformance.md and conformance.csv if they exist.")
  var force = false

  @Flag(name: .long, help: "Print each backend's full report to stderr.")
  var verbose = false

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp(
      "Seconds a rule may run, progress or not, before its process is killed and the rule is"
        + " reported as timed out (default: 300).", valueName: "seconds"),
    transform: parseRuleTimeout)
  var ruleTimeout: Double?

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp(
      "Seconds a rule may go without progress (no call into the backend starts or returns, no"
        + " callback arrives, no wait of the rule's own is pending) before its process is killed"
        + " and the rule is reported as timed out, or three times the longest such gap the rule"
        + " has shown so far if that is longer (default: 10).", valueName: "seconds"),
    transform: parseRuleTimeout)
  var stallTimeout: Double?

  @Flag(
    name: .long,
    help:
      "Run every rule in this process instead of in a child process per backend: a rule that traps or hangs then ends the run with no report."
  )
  var inProcess = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Backends whose isolated runs go on at once, each in child processes of its own. More"
        + " finishes sooner on a machine with idle cores; the THR probes then see a busier"
        + " machine.", valueName: "count"))
  var jobs: Int = 1

  func validate() throws {
    if outputDirectory == "-" {
      throw ValidationError(
        "--output-directory '-': standard output holds no directory; leave the option out to"
          + " print the matrix there, or give ./- for a directory named -")
    }
    if format == .json && outputDirectory != nil {
      throw ValidationError(
        "--format json prints to standard output; --output-directory writes conformance.md and"
          + " conformance.csv")
    }
    if inProcess && ruleTimeout != nil {
      throw ValidationError("--rule-timeout goes with isolated runs, not with --in-process")
    }
    if inProcess && stallTimeout != nil {
      throw ValidationError("--stall-timeout goes with isolated runs, not with --in-process")
    }
    if !(1...64).contains(jobs) {
      throw ValidationError("--jobs takes a whole number from 1 to 64, not \(jobs)")
    }
    if inProcess && jobs != 1 {
      throw ValidationError("--jobs goes with isolated runs, not with --in-process")
    }
  }

  func run(with tool: Tool) throws {
    let selected = try tool.selectedRows(backend).backends
    let unchecked = selected.filter { $0.backend == nil }.map(\.name)
    if backend != nil, !unchecked.isEmpty {
      throw ValidationError(
        "--backend \(unchecked.joined(separator: ",")): measured through a subscription of its"
          + " own, not the contract's tokens, so the suite cannot run on it (`\(tool.name) list`"
          + " names the backends it runs on)")
    }
    let timeout = ruleTimeout ?? IsolatedConformanceRunner.defaultRuleTimeout
    let stallTimeout = stallTimeout ?? IsolatedConformanceRunner.defaultStallTimeout
    let files = outputDirectory.map { directory in
      ["conformance.md", "conformance.csv"].map {
        OutputFile(
          (directory as NSString).appendingPathComponent($0), replacing: force,
          option: "--output-directory")
      }
    }
    for file in files ?? [] { try file.check() }
    let rows = selected.filter { $0.backend != nil }
    let verbose = verbose
    @Sendable func reported(
      _ name: String, _ report: () throws -> ConformanceReport
    ) rethrows
      -> ConformanceReport
    {
      StandardOutput.writeError("conformance: \(name)…\n")
      let report = try report()
      if verbose { StandardOutput.writeError(report.text + "\n") }
      return report
    }
    let reports: [ConformanceReport]
    if inProcess {
      // On this thread, one backend after another (--jobs is refused with --in-process).
      reports = rows.compactMap { row in
        row.backend.map { backend in reported(row.name) { ConformanceSuite.run(backend) } }
      }
    } else {
      // Each worker thread only starts and reads the child processes of a backend, which it
      // names by its name and declaration: no backend value crosses threads.
      reports = try Self.reports(
        of: rows.map { ($0.name, $0.capabilities) }, jobs: jobs
      ) { name, capabilities in
        try reported(name) {
          try Self.isolatedRun(
            name, capabilities: capabilities, timeout: timeout, stallTimeout: stallTimeout)
        }
      }
    }
    var ownFailures: [String] = []
    for (row, report) in zip(rows, reports) where row.description.provenance == .original {
      ownFailures += report.failures.map {
        "\(row.name) fails \($0.rule.id): \($0.outcome.details)"
      }
    }
    let matrix = ConformanceMatrix(reports)
    let markdown = ConformanceMatrixDocument.markdown(for: matrix, by: tool)
    if let files {
      try OutputFile.writeAll([(files[0], markdown), (files[1], matrix.csv)])
    } else {
      try StandardOutput.write(format == .json ? try matrix.json() : markdown)
    }
    if !ownFailures.isEmpty {
      StandardOutput.writeError(
        "backends we wrote fail rules they declare:\n" + ownFailures.joined(separator: "\n")
          + "\n")
      throw ExitCode(ExitStatus.failure.rawValue)
    }
  }

  /// Each backend's report, in the order of `rows`, from `jobs` worker threads that take the
  /// next backend as they finish one. The first error thrown ends the run once the backends
  /// already started are done.
  ///
  /// - Complexity: O(*b* / `jobs`) runs of `report` in wall time, for *b* backends.
  static func reports(
    of rows: [(name: String, capabilities: BackendCapabilities)], jobs: Int,
    _ report: @Sendable (String, BackendCapabilities) throws -> ConformanceReport
  ) throws -> [ConformanceReport] {
    let state = Mutex<(next: Int, reports: [ConformanceReport?], error: (any Error)?)>(
      (0, Array(repeating: nil, count: rows.count), nil))
    DispatchQueue.concurrentPerform(iterations: min(jobs, max(rows.count, 1))) { _ in
      while true {
        let index: Int? = state.withLock { state in
          guard state.error == nil, state.next < rows.count else { return nil }
          defer { state.next += 1 }
          return state.next
        }
        guard let index else { return }
        do {
          let result = try report(rows[index].name, rows[index].capabilities)
          state.withLock { $0.reports[index] = result }
        } catch {
          state.withLock { state in state.error = state.error ?? error }
        }
      }
    }
    return try state.withLock { state in
      if let error = state.error { throw error }
      return state.reports.map { $0! }
    }
  }

  /// Parses `--rule-timeout` and `--stall-timeout`: a positive, finite number of seconds.
  ///
  /// - Throws: a `ValidationError` saying what is accepted (ArgumentParser names the option and
  ///   the value).
  @Sendable static func parseRuleTimeout(_ text: String) throws -> Double {
    guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite,
      seconds > 0
    else { throw ValidationError("must be a positive, finite number of seconds") }
    return seconds
  }

  /// Runs the rules of the backend called `name`, which declares `capabilities`, in child
  /// processes of this tool, each killed with SIGKILL if the tool is stopped by a signal.
  static func isolatedRun(
    _ name: String, capabilities: BackendCapabilities, timeout: Double,
    stallTimeout: Double = IsolatedConformanceRunner.defaultStallTimeout
  ) throws
    -> ConformanceReport
  {
    do {
      var runner = try IsolatedConformanceRunner(
        executable: IsolatedConformanceRunner.runningExecutable,
        arguments: [ConformanceChildRequest.subcommand],
        ruleTimeout: timeout, stallTimeout: stallTimeout)
      runner.childStarted = { Interruption.remember(child: $0, stoppingWith: SIGKILL) }
      runner.childEnded = { Interruption.forget(child: $0) }
      return try runner.run(backendName: name, capabilities: capabilities)
    } catch let error as ConformanceIsolationError {
      throw ToolError("conformance of \(name): \(error)")
    }
  }
}
