import CProcessControl
import Foundation
import ObservationCore

/// The child side of an isolated conformance run: runs a backend's rules in this process and
/// streams, for each, a `starting` line and an `outcome` line to standard output (see
/// ``IsolatedConformanceRunner``, which starts the child, reads the stream and survives the
/// child's crashes).
///
/// Call it from the `main` of an executable that can make the backend, with the
/// ``ConformanceChildRequest`` the runner appended to the command line:
///
/// ```swift
/// // my-harness conformance-child [request arguments]
/// let request = try ConformanceChildRequest(arguments: CommandLine.arguments.dropFirst(2))
/// try ConformanceChild.run(MyBackend(), request: request)
/// ```
public enum ConformanceChild {
  /// Runs `backend`'s rules in the order the suite evaluates them, from
  /// ``ConformanceChildRequest/firstRule``, and writes the stream to standard output.
  ///
  /// Before the first rule it asks the kernel to kill this process when the parent ends (with
  /// ``ConformanceChildRequest/parentProcess``), reads the outcomes an earlier child reported
  /// (with ``ConformanceChildRequest/readsKnownOutcomes``), and sends what else is written to
  /// standard output (a backend's `print`) to standard error, so that it cannot garble the
  /// stream. Rules whose outcome is known are not run again; suite-level rules read them.
  /// While a rule runs, a thread writes `progress` each second in which the rule made some: a
  /// call into the backend, a callback, a token's cancel or release, or a bounded wait
  /// (``IsolatedConformanceRunner/stallTimeout``).
  /// If the parent stops reading, the process exits with status 1. After a probe of concurrent
  /// use on a backend that does not declare `threadSafe`, the process ends at once (status 0)
  /// and the runner goes on in a new one.
  ///
  /// - Throws: ``ConformanceIsolationError/invalidRequest(_:)`` for a request of another
  ///   backend, an unknown first rule or an unreadable standard input, ``ConformanceIsolationError/parentGone`` if the parent has
  ///   ended already.
  /// - Complexity: the suite's, from the first rule on.
  public static func run<Backend: ObservationBackend>(
    _ backend: Backend, request: ConformanceChildRequest,
    configuration: ConformanceConfiguration = .standard
  ) throws {
    guard request.backend == backend.name else {
      throw ConformanceIsolationError.invalidRequest(
        "the request names backend '\(request.backend)'; this child runs '\(backend.name)'")
    }
    if let parent = request.parentProcess, process_control_die_with_parent(parent) != 0 {
      throw ConformanceIsolationError.parentGone
    }
    let order = ConformanceSuite.evaluationOrder
    var start = order.startIndex
    if let first = request.firstRule {
      guard let index = order.firstIndex(where: { $0.id == first }) else {
        throw ConformanceIsolationError.invalidRequest("\(first) is not a rule of the suite")
      }
      start = index
    }
    let known = request.readsKnownOutcomes ? try readKnownOutcomes() : [:]
    let stream = try StreamOutput.takingStandardOutput()
    // A trap ends only this process: ERR-02 may perform the misuse a backend declares to trap.
    var configuration = configuration
    configuration.isolated = true
    let context = RuleContext(backend: backend, configuration: configuration)
    var knownThroughErasure: [RuleID: RuleOutcome] = [:]
    for (unit, outcome) in known {
      switch unit {
      case .rule(let id): context.outcomes[id] = outcome
      case .erased(let id): knownThroughErasure[id] = outcome
      }
    }
    let observer = ErasedRunObserver(
      known: knownThroughErasure,
      willRun: { id, binding in
        stream.write(.starting(unit: .erased(id), binding: binding))
      },
      didRun: { id, outcome in
        stream.write(.outcome(unit: .erased(id), outcome))
      })
    stream.write(.hello(backend: backend.name))
    ProgressHeartbeat.start(writingTo: stream)
    for rule in order[start...] where context.outcomes[rule.id] == nil {
      stream.write(.starting(unit: .rule(rule.id), binding: rule.binds(context.capabilities)))
      let outcome = ErasedRunObserver.$current.withValue(observer) {
        context.outcome(of: rule.id)!
      }
      stream.write(.outcome(unit: .rule(rule.id), outcome))
      if ConformanceSuite.isChildProcessProbe(rule, for: context.capabilities) {
        // Threads the probe left stuck, or state it corrupted, must not reach the next rule
        // (nor hang this process's exit): the runner starts a fresh child for it.
        fflush(nil)
        _exit(0)
      }
    }
  }

  /// The `outcome` lines on standard input, read to its end, by unit.
  private static func readKnownOutcomes() throws -> [ConformanceStreamLine.Unit: RuleOutcome] {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(STDIN_FILENO, &buffer, buffer.count)
      if count == 0 { break }
      if count < 0 {
        if errno == EINTR { continue }
        throw ConformanceIsolationError.invalidRequest(
          "standard input: \(String(cString: strerror(errno)))")
      }
      data.append(contentsOf: buffer[..<count])
    }
    var known: [ConformanceStreamLine.Unit: RuleOutcome] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      guard case .outcome(let unit, let outcome)? = ConformanceStreamLine(line) else {
        throw ConformanceIsolationError.invalidRequest(
          "standard input has a line that is not a known outcome: \(line.prefix(80))")
      }
      known[unit] = outcome
    }
    return known
  }
}
