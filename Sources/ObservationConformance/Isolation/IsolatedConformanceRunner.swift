import Foundation
import ObservationCore

/// Runs the conformance suite on a backend in child processes, so that a rule that traps,
/// overflows the stack or deadlocks becomes that rule's outcome instead of ending the run.
///
/// The runner starts `executable` with `arguments` followed by a ``ConformanceChildRequest``'s;
/// that process must make the backend and call ``ConformanceChild/run(_:request:configuration:)``.
/// One child runs every rule in turn and reports each as it starts and ends. If the child dies
/// during a rule, the rule is ``RuleOutcome/crashed(signal:details:binding:)``; if a rule makes
/// no progress for its stall limit (``stallTimeout`` seconds, or longer for a rule that has
/// shown longer gaps between its progress), or runs for ``ruleTimeout`` seconds, the child is
/// killed (SIGKILL) and the rule is ``RuleOutcome/timedOut(seconds:binding:)``. Either way a new child carries on with the next
/// rule, given the outcomes so far, so that the suite-level rules (ERASE-01, META-01, ...) see
/// what they would have seen in one process. ERASE-01 reports each rule it re-runs through the
/// erased handles too: a crash there is that re-run's, and ERASE-01 carries on after it.
///
/// ```swift
/// let runner = try IsolatedConformanceRunner(
///   executable: IsolatedConformanceRunner.runningExecutable,
///   arguments: [ConformanceChildRequest.subcommand], ruleTimeout: 60)
/// let report = try runner.run(MyBackend())
/// ```
///
/// Each child asks the kernel to kill it when the thread that started it ends, so call ``run(_:)``
/// from a thread that outlives the run (the main thread, or a task's).
public struct IsolatedConformanceRunner: Sendable {
  /// The executable to start for each child.
  public var executable: URL
  /// The arguments that make `executable` run the backend's child side; the request's are
  /// appended.
  public var arguments: [String]
  /// Seconds a rule may run, however much progress it makes, before its child is killed.
  public let ruleTimeout: Double
  /// The least number of seconds a rule may go without progress before its child is killed
  /// (if ``ruleTimeout`` is not shorter): the floor of the rule's stall limit.
  ///
  /// Progress is what the child reports each second in which the rule made some: a call into
  /// the backend (`set`, `observe`, `cancel`, a read, a token's release) that started or
  /// returned, a callback the backend made, or a wait of the rule's own that has not yet
  /// reached the timeout it gives up at. The stall limit is derived from what the rule has
  /// done so far: this many seconds, or three times the longest gap between two reports of
  /// progress the rule has shown, whichever is longer (a rule whose single operation once took
  /// 5 s may go 15 s without progress). A backend that spins or deadlocks makes none and costs
  /// its limit, not ``ruleTimeout``; a slow but correct one makes some every second, or has
  /// shown its longest pause before, however long the rule takes.
  public let stallTimeout: Double
  /// The children's environment. `SWIFT_BACKTRACE` is `enable=no` unless it is set here: the
  /// backtracer would spend seconds on every crash, and the crash is reported anyway.
  public var environment: [String: String]
  /// Called with each child's process id once it has started, so that a caller that is stopped
  /// by a signal can kill it (each child also dies when its parent does).
  public var childStarted: @Sendable (Int32) -> Void = { _ in }
  /// Called with each child's process id once it has ended and been reaped.
  public var childEnded: @Sendable (Int32) -> Void = { _ in }

  /// The default ``ruleTimeout``: five minutes, far above the slowest rule.
  public static let defaultRuleTimeout = 300.0

  /// The default ``stallTimeout``: ten seconds, ten of the child's one-second heartbeats. In an
  /// isolated run of every built-in backend no rule went more than 1.9 s without progress,
  /// though the longest ran for 27 s; a deadlock is killed 10 s after its last progress, unless
  /// the rule had shown a gap of more than 3.3 s before it.
  public static let defaultStallTimeout = 10.0

  /// Seconds a probe of concurrent use on a backend that does not declare `threadSafe` may go
  /// without finishing (if ``ruleTimeout`` is not shorter): one minute, far above its 50
  /// iterations. Such a probe that hangs has shown what it probes for; waiting the full rule
  /// timeout would only make the run longer.
  public static let concurrencyProbeTimeout = 60.0

  /// How long the rule or re-run `unit`, now running, may go without finishing.
  private func timeout(
    for unit: ConformanceStreamLine.Unit?, _ capabilities: BackendCapabilities
  ) -> Double {
    guard case .rule(let id)? = unit, let rule = ConformanceSuite.rule(id),
      ConformanceSuite.isChildProcessProbe(rule, for: capabilities)
    else { return ruleTimeout }
    return min(ruleTimeout, Self.concurrencyProbeTimeout)
  }

  /// Creates a runner.
  ///
  /// - Throws: ``ConformanceIsolationError/invalidTimeout(_:)`` unless `ruleTimeout` and
  ///   `stallTimeout` are positive, finite numbers.
  public init(
    executable: URL, arguments: [String] = [], ruleTimeout: Double = defaultRuleTimeout,
    stallTimeout: Double = defaultStallTimeout,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws {
    for timeout in [ruleTimeout, stallTimeout] where !(timeout.isFinite && timeout > 0) {
      throw ConformanceIsolationError.invalidTimeout(timeout)
    }
    self.executable = executable
    self.arguments = arguments
    self.ruleTimeout = ruleTimeout
    self.stallTimeout = stallTimeout
    self.environment = environment
  }

  /// The executable of this process, to start again as a child (`/proc/self/exe` on Linux,
  /// which names this very binary even if its file has since been replaced).
  public static var runningExecutable: URL {
    let procSelf = "/proc/self/exe"
    if FileManager.default.isExecutableFile(atPath: procSelf) {
      return URL(fileURLWithPath: procSelf)
    }
    return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
  }

  /// Runs every rule on `backend` in child processes and returns the report: every rule's
  /// outcome, as ``ConformanceSuite/run(_:configuration:)`` would give it, except that a rule
  /// that crashed or hung says so.
  ///
  /// - Throws: ``ConformanceIsolationError`` if a child cannot be started, ends or stalls before
  ///   greeting, or greets for another backend.
  /// - Complexity: the suite's, plus one process start per crash or timeout and the stall
  ///   limit (``stallTimeout``, or three times the rule's longest gap between progress) per
  ///   rule that stalls (``ruleTimeout`` at most per timeout).
  public func run<Backend: ObservationBackend>(_ backend: Backend) throws -> ConformanceReport {
    try run(backendName: backend.name, capabilities: backend.capabilities)
  }

  /// Runs every rule on the backend the children make, called `backendName` and declaring
  /// `capabilities`, and returns the report (see ``run(_:)``).
  ///
  /// - Throws: ``ConformanceIsolationError``, as ``run(_:)`` does.
  public func run(
    backendName: String, capabilities: BackendCapabilities
  ) throws
    -> ConformanceReport
  {
    try run(backendName: backendName, capabilities: capabilities, only: nil)
  }

  /// Runs the rules in `selection` (every rule when `nil`) on the backend the children make, as
  /// ``run(backendName:capabilities:)`` does; every other rule is ``RuleOutcome/untested(_:)``,
  /// which a selected suite-level rule reads as such. The tests run one slow rule this way.
  ///
  /// - Throws: ``ConformanceIsolationError``, as ``run(_:)`` does.
  /// - Complexity: the selected rules', as ``run(_:)``.
  func run(
    backendName: String, capabilities: BackendCapabilities, only selection: Set<RuleID>?
  ) throws -> ConformanceReport {
    var session = IsolatedRunSession(
      order: ConformanceSuite.evaluationOrder.map(\.id), backendName: backendName,
      capabilities: capabilities)
    if let selection {
      for id in session.order where !selection.contains(id) {
        session.record(.rule(id), .untested("not selected for this run"))
      }
    }
    while !session.isComplete {
      try runChild(&session)
    }
    return ConformanceReport(
      backendName: backendName, capabilities: capabilities,
      suiteVersion: ConformanceSuite.version,
      results: ConformanceSuite.rules.map {
        ConformanceReport.Result(rule: $0, outcome: session.known[.rule($0.id)]!)
      })
  }

  /// Starts one child from where `session` stands and reads it until it finishes, dies or
  /// stalls, recording what it reported and, if it died or stalled, whose fault it was.
  private func runChild(_ session: inout IsolatedRunSession) throws {
    let request = ConformanceChildRequest(
      backend: session.backendName, firstRule: session.firstUnreported, parentProcess: getpid(),
      readsKnownOutcomes: !session.known.isEmpty)
    var childEnvironment = environment
    if childEnvironment["SWIFT_BACKTRACE"] == nil {
      childEnvironment["SWIFT_BACKTRACE"] = "enable=no"
    }
    let child = try ConformanceChildProcess(
      executable: executable, arguments: arguments + request.arguments,
      environment: childEnvironment,
      input: request.readsKnownOutcomes ? Data(session.knownLines.utf8) : nil)
    let pid = child.processIdentifier
    childStarted(pid)
    var ended = false
    func finish(killing: Bool) -> ConformanceChildProcess.Termination {
      if killing { child.kill() }
      let termination = child.finish()
      if !ended {
        ended = true
        childEnded(pid)
      }
      return termination
    }

    // Whatever the child writes that is not the stream: kept for a crash's details.
    var transcript = ChildTranscript()
    let greetingDeadline = DispatchTime.now() + ruleTimeout
    greeting: while true {
      switch child.next(before: greetingDeadline) {
      case .line(let text):
        guard case .hello(let name)? = ConformanceStreamLine(text[...]) else {
          transcript.append(text)
          continue greeting
        }
        guard name == session.backendName else {
          _ = finish(killing: true)
          throw ConformanceIsolationError.protocolMismatch(
            "it runs backend '\(name)', not '\(session.backendName)'")
        }
        break greeting
      case .end, .timedOut:
        let termination = finish(killing: true)
        let said = transcript.lastWords(since: 0)
        throw ConformanceIsolationError.childDidNotStart(
          "\(executable.path) \(termination) before greeting" + (said.isEmpty ? "" : ": \(said)"))
      }
    }

    var inFlight: [(unit: ConformanceStreamLine.Unit, binding: Bool, mark: Int)] = []
    var startedAny = false
    var stalled = false
    // Only the stream is progress: a rule that loops printing still times out. A unit may run
    // for its timeout; it may go without progress for its stall limit, which grows with the
    // longest gap it has shown while it still made progress.
    var unitTimeout = ruleTimeout
    var unitDeadline = DispatchTime.now() + unitTimeout
    var stall = StallLimit(floor: stallTimeout)
    reading: while true {
      switch child.next(before: min(unitDeadline, stall.deadline)) {
      case .line(let text):
        switch ConformanceStreamLine(text[...]) {
        case .starting(let unit, let binding)?:
          inFlight.append((unit, binding, transcript.mark))
          startedAny = true
        case .outcome(let unit, let outcome)?:
          guard inFlight.last?.unit == unit else {
            _ = finish(killing: true)
            throw ConformanceIsolationError.protocolMismatch(
              "it reported \(unit) without starting it")
          }
          inFlight.removeLast()
          session.record(unit, outcome)
        case .progress?:
          stall.progressed()
          continue reading
        case .hello?, nil:
          transcript.append(text)
          continue reading
        }
        unitTimeout = timeout(for: inFlight.last?.unit, session.capabilities)
        unitDeadline = .now() + unitTimeout
        stall = StallLimit(floor: stallTimeout)
      case .end:
        break reading
      case .timedOut:
        stalled = true
        break reading
      }
    }
    let termination = finish(killing: stalled)
    let stalledFor = stall.deadline < unitDeadline ? stall.seconds : unitTimeout
    if session.isComplete && inFlight.isEmpty { return }

    if let failed = inFlight.last {
      let said = transcript.lastWords(since: failed.mark)
      session.record(
        failed.unit,
        Self.concurrencyProbeLost(
          failed.unit, capabilities: session.capabilities, stalled: stalled, termination,
          said: said)
          ?? (stalled
            ? .timedOut(seconds: stalledFor, binding: failed.binding)
            : Self.expectedTrap(of: failed.unit, termination, said: said, binding: failed.binding)
              ?? crash(termination, said: said, binding: failed.binding)))
    } else if !startedAny, let id = session.firstUnreported {
      // It greeted and then died or stalled before its first rule: that rule's doing.
      let binding = ConformanceSuite.rule(id)!.binds(session.capabilities)
      session.record(
        .rule(id),
        stalled
          ? .timedOut(seconds: stalledFor, binding: binding)
          : crash(termination, said: transcript.lastWords(since: 0), binding: binding))
    }
    // Otherwise it ended between two rules, after running some: the next child starts where it
    // stopped.
  }

  /// The outcome of a probe of concurrent use on a backend that does not declare `threadSafe`
  /// (see ``ConformanceSuite/isChildProcessProbe(_:for:)``) whose child died or hung: the
  /// behaviour was not observed, and how the child ended is the probe's finding. `nil` for any
  /// other unit.
  private static func concurrencyProbeLost(
    _ unit: ConformanceStreamLine.Unit, capabilities: BackendCapabilities, stalled: Bool,
    _ termination: ConformanceChildProcess.Termination, said: String
  ) -> RuleOutcome? {
    guard case .rule(let id) = unit, let rule = ConformanceSuite.rule(id),
      ConformanceSuite.isChildProcessProbe(rule, for: capabilities)
    else { return nil }
    let ending =
      stalled ? "made no progress and was killed" : "\(termination)"
    return .probe(
      observed: false,
      details: "concurrent use, which the backend does not declare safe, ended the process"
        + " running the probe: it \(ending)" + (said.isEmpty ? "" : "; its last words: \(said)"))
  }

  /// The pass of a rule that expects a trap (ERR-02) and got one: a binding rule whose child
  /// was stopped by SIGILL or SIGTRAP, the signals of a Swift trap. `nil` otherwise.
  private static func expectedTrap(
    of unit: ConformanceStreamLine.Unit, _ termination: ConformanceChildProcess.Termination,
    said: String,
    binding: Bool
  ) -> RuleOutcome? {
    guard binding, ConformanceSuite.rule(unit.ruleID)?.traits.contains(.expectsTrap) == true,
      case .signal(let number) = termination, number == SIGILL || number == SIGTRAP
    else { return nil }
    return .passed(
      note: "the misuse trapped (signal \(number)), as declared"
        + (said.isEmpty ? "" : "; its last words: \(said)"))
  }

  /// The outcome of a rule whose child ended, as `termination` says, while it ran.
  private func crash(
    _ termination: ConformanceChildProcess.Termination, said: String, binding: Bool
  ) -> RuleOutcome {
    let signal: Int32?
    if case .signal(let number) = termination { signal = number } else { signal = nil }
    return .crashed(
      signal: signal,
      details: "the process running the rule \(termination)"
        + (said.isEmpty ? "" : "; its last words: \(said)"),
      binding: binding)
  }
}
