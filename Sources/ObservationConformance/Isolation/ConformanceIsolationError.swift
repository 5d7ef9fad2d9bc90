/// Why an isolated conformance run could not report on a backend at all.
///
/// A rule that crashes or hangs is not an error: it is that rule's outcome. These errors mean
/// the machinery itself failed: the child would not start, or spoke another protocol.
public enum ConformanceIsolationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A child's arguments or standard input were not what ``ConformanceChildRequest`` expects.
  case invalidRequest(String)
  /// A child's arguments were a request of another ``ConformanceChildRequest/protocolVersion``
  /// (`found`), or of none (`nil`): the runner and the child were built from other code.
  case incompatibleRequest(found: String?)
  /// The child process could not be started, or ended or stalled before greeting; with what
  /// it said.
  case childDidNotStart(String)
  /// The child greeted for another backend, or another version of the stream.
  case protocolMismatch(String)
  /// The rule timeout is not a positive, finite number of seconds.
  case invalidTimeout(Double)
  /// The parent process ended before the child could ask to die with it.
  case parentGone

  /// A one-line explanation.
  public var description: String {
    switch self {
    case .invalidRequest(let reason): return "invalid conformance child request: \(reason)"
    case .incompatibleRequest(let found):
      return
        "the conformance child request is of protocol \(found ?? "none") (it must start with"
        + " \(ConformanceChildRequest.protocolOption) \(ConformanceChildRequest.protocolVersion));"
        + " the runner and this child were built from different code"
    case .childDidNotStart(let reason): return "the conformance child did not start: \(reason)"
    case .protocolMismatch(let reason): return "the conformance child spoke otherwise: \(reason)"
    case .invalidTimeout(let seconds):
      return "the rule timeout must be a positive, finite number of seconds, got \(seconds)"
    case .parentGone: return "the process that started this conformance child has ended"
    }
  }
}
