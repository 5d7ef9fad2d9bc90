/// What an ``IsolatedConformanceRunner`` asks of the child process it starts: the arguments it
/// appends to the child's command line, and what ``ConformanceChild/run(_:request:configuration:)``
/// reads back from them.
///
/// ```swift
/// // In the child's `main`, after taking the arguments that are yours:
/// let request = try ConformanceChildRequest(arguments: CommandLine.arguments.dropFirst(2))
/// try ConformanceChild.run(MyBackend(), request: request)
/// ```
public struct ConformanceChildRequest: Sendable, Hashable {
  /// The rule to start from (`--from RULE-ID`), in the order the suite evaluates rules; `nil`
  /// for the first.
  public var firstRule: String?
  /// The process that started the child (`--parent PID`): the child asks the kernel to kill it
  /// when that process ends. `nil` to outlive it.
  public var parentProcess: Int32?
  /// Whether the outcomes an earlier child reported arrive on standard input
  /// (`--known-outcomes-on-stdin`).
  public var readsKnownOutcomes: Bool

  /// Creates a request.
  public init(
    firstRule: String? = nil, parentProcess: Int32? = nil, readsKnownOutcomes: Bool = false
  ) {
    self.firstRule = firstRule
    self.parentProcess = parentProcess
    self.readsKnownOutcomes = readsKnownOutcomes
  }

  /// The request's command-line arguments: `--from RULE-ID`, `--parent PID`,
  /// `--known-outcomes-on-stdin`, each only when set.
  public var arguments: [String] {
    var arguments: [String] = []
    if let firstRule { arguments += [Self.fromOption, firstRule] }
    if let parentProcess { arguments += [Self.parentOption, String(parentProcess)] }
    if readsKnownOutcomes { arguments.append(Self.knownOutcomesFlag) }
    return arguments
  }

  /// Parses ``arguments``; every argument must be one of them.
  ///
  /// - Throws: ``ConformanceIsolationError/invalidRequest(_:)`` naming the argument at fault.
  /// - Complexity: O(*n*) for *n* arguments.
  public init(arguments: some Sequence<String>) throws {
    self.init()
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case Self.fromOption:
        guard let value = iterator.next(), !value.isEmpty else {
          throw ConformanceIsolationError.invalidRequest("\(argument) needs a rule identifier")
        }
        firstRule = value
      case Self.parentOption:
        guard let value = iterator.next(), let pid = Int32(value), pid > 0 else {
          throw ConformanceIsolationError.invalidRequest("\(argument) needs a process id")
        }
        parentProcess = pid
      case Self.knownOutcomesFlag:
        readsKnownOutcomes = true
      default:
        throw ConformanceIsolationError.invalidRequest("unknown argument '\(argument)'")
      }
    }
  }

  /// `--from`.
  public static let fromOption = "--from"
  /// `--parent`.
  public static let parentOption = "--parent"
  /// `--known-outcomes-on-stdin`.
  public static let knownOutcomesFlag = "--known-outcomes-on-stdin"
}
