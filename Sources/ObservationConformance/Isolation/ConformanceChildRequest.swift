/// What an ``IsolatedConformanceRunner`` asks of the child process it starts: the arguments it
/// appends to the child's command line, and what ``ConformanceChild/run(_:request:configuration:)``
/// reads back from them.
///
/// The arguments start with the protocol's version (`--protocol 2`), so that a child built from
/// other code refuses a request it would read otherwise, and name the backend to run, so that
/// an executable that can make several picks it from the request alone:
///
/// ```swift
/// // In the child's `main`, after taking the arguments that are yours:
/// let request = try ConformanceChildRequest(arguments: CommandLine.arguments.dropFirst(2))
/// try ConformanceChild.run(MyBackend(), request: request)
/// ```
public struct ConformanceChildRequest: Sendable, Hashable {
  /// The version of the request and of the stream the child writes back: a child refuses a
  /// request of another version (``ConformanceIsolationError/incompatibleRequest(found:)``).
  /// Version 2 added this version and ``backend``, and names ``firstRule`` as a ``RuleID``.
  public static let protocolVersion = 2

  /// The subcommand that conventionally makes an executable a conformance child, as `observatory`
  /// and the test fixtures name it: the runner's `arguments` start with it.
  public static let subcommand = "conformance-child"

  /// The backend whose rules to run (`--backend NAME`), by its name (`ObservationBackend.name`).
  public var backend: String
  /// The rule to start from (`--from RULE-ID`), in the order the suite evaluates rules; `nil`
  /// for the first.
  public var firstRule: RuleID?
  /// The process that started the child (`--parent PID`): the child asks the kernel to kill it
  /// when that process ends. `nil` to outlive it.
  public var parentProcess: Int32?
  /// Whether the outcomes an earlier child reported arrive on standard input
  /// (`--known-outcomes-on-stdin`).
  public var readsKnownOutcomes: Bool

  /// A request to run the rules of `backend`.
  ///
  /// - Complexity: O(1).
  public init(
    backend: String, firstRule: RuleID? = nil, parentProcess: Int32? = nil,
    readsKnownOutcomes: Bool = false
  ) {
    self.backend = backend
    self.firstRule = firstRule
    self.parentProcess = parentProcess
    self.readsKnownOutcomes = readsKnownOutcomes
  }

  /// The request's command-line arguments: `--protocol 2 --backend NAME`, then `--from RULE-ID`,
  /// `--parent PID` and `--known-outcomes-on-stdin`, each only when set.
  ///
  /// - Complexity: O(1).
  public var arguments: [String] {
    var arguments = [
      Self.protocolOption, String(Self.protocolVersion), Self.backendOption, backend,
    ]
    if let firstRule { arguments += [Self.fromOption, firstRule.rawValue] }
    if let parentProcess { arguments += [Self.parentOption, String(parentProcess)] }
    if readsKnownOutcomes { arguments.append(Self.knownOutcomesFlag) }
    return arguments
  }

  /// Parses ``arguments``; every argument must be one of them, the protocol's version first.
  ///
  /// - Throws: ``ConformanceIsolationError/incompatibleRequest(found:)`` for a request of
  ///   another version (or none), ``ConformanceIsolationError/invalidRequest(_:)`` naming the
  ///   argument at fault.
  /// - Complexity: O(*n*) for *n* arguments.
  public init(arguments: some Sequence<String>) throws {
    var iterator = arguments.makeIterator()
    guard iterator.next() == Self.protocolOption, let version = iterator.next() else {
      throw ConformanceIsolationError.incompatibleRequest(found: nil)
    }
    guard version == String(Self.protocolVersion) else {
      throw ConformanceIsolationError.incompatibleRequest(found: version)
    }
    var backend: String?
    var request = ConformanceChildRequest(backend: "")
    while let argument = iterator.next() {
      switch argument {
      case Self.backendOption:
        guard let value = iterator.next(), !value.isEmpty else {
          throw ConformanceIsolationError.invalidRequest("\(argument) needs a backend's name")
        }
        backend = value
      case Self.fromOption:
        guard let value = iterator.next(), !value.isEmpty else {
          throw ConformanceIsolationError.invalidRequest("\(argument) needs a rule identifier")
        }
        request.firstRule = RuleID(rawValue: value)
      case Self.parentOption:
        guard let value = iterator.next(), let pid = Int32(value), pid > 0 else {
          throw ConformanceIsolationError.invalidRequest("\(argument) needs a process id")
        }
        request.parentProcess = pid
      case Self.knownOutcomesFlag:
        request.readsKnownOutcomes = true
      default:
        throw ConformanceIsolationError.invalidRequest("unknown argument '\(argument)'")
      }
    }
    guard let backend else {
      throw ConformanceIsolationError.invalidRequest("\(Self.backendOption) NAME is missing")
    }
    request.backend = backend
    self = request
  }

  /// `--protocol`.
  public static let protocolOption = "--protocol"
  /// `--backend`.
  public static let backendOption = "--backend"
  /// `--from`.
  public static let fromOption = "--from"
  /// `--parent`.
  public static let parentOption = "--parent"
  /// `--known-outcomes-on-stdin`.
  public static let knownOutcomesFlag = "--known-outcomes-on-stdin"
}
