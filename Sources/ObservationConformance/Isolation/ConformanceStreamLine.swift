import Foundation

/// One line of the stream between an isolated run's parent and its child process.
///
/// The child writes, on its standard output:
///
/// ```
/// observatory-conformance-stream 2 linked-list
/// starting INIT-01 binding
/// outcome INIT-01 {"kind":"pass"}
/// starting REE-02 binding
/// progress
/// outcome REE-02 {"kind":"pass"}
/// starting ERASE-01 binding
/// starting erased:INIT-01 binding
/// outcome erased:INIT-01 {"kind":"pass"}
/// ...
/// ```
///
/// A *unit* (``Unit``) is a rule's identifier, or `erased:` and one, for a rule ERASE-01 re-runs
/// through the erased handles. While a unit runs, the child writes `progress` once a second if the unit
/// made progress in that second (``RuleProgress``). The parent sends the outcomes already known to a restarted child as
/// `outcome` lines on its standard input. The outcome is JSON (``WireOutcome``), so that every
/// outcome, its prose included, arrives exactly as it left. Blank lines, and lines that are none
/// of these, are not part of the stream: the parent reads the child's standard error in the
/// same pipe, and keeps those lines for a crash's details.
enum ConformanceStreamLine: Hashable {
  /// The first line: the protocol's version and the backend's name.
  case hello(backend: String)
  /// A unit starts; `binding` is `false` when it runs as a probe.
  case starting(unit: Unit, binding: Bool)
  /// A unit's outcome.
  case outcome(unit: Unit, RuleOutcome)
  /// The unit running made progress since the last line.
  case progress

  /// The first word of the greeting.
  static let greeting = "observatory-conformance-stream"
  /// The version of the protocol; a child and parent of different versions do not talk.
  static let version = 2

  /// The line, without its newline.
  var text: String {
    switch self {
    case .hello(let backend): return "\(Self.greeting) \(Self.version) \(backend)"
    case .starting(let unit, let binding):
      return "starting \(unit) \(binding ? "binding" : "probe")"
    case .outcome(let unit, let outcome):
      let json = try! JSONEncoder.sortedKeys.encode(WireOutcome(outcome))
      return "outcome \(unit) " + String(decoding: json, as: UTF8.self)
    case .progress: return "progress"
    }
  }

  /// Parses a line (without its newline); `nil` if it is not one of the protocol's.
  init?(_ line: Substring) {
    if line == "progress" {
      self = .progress
      return
    }
    let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard words.count == 3, !words[1].isEmpty else { return nil }
    switch words[0] {
    case Substring(Self.greeting):
      guard words[1] == String(Self.version), !words[2].isEmpty else { return nil }
      self = .hello(backend: String(words[2]))
    case "starting":
      guard words[2] == "binding" || words[2] == "probe" else { return nil }
      self = .starting(unit: Unit(words[1]), binding: words[2] == "binding")
    case "outcome":
      guard
        let wire = try? JSONDecoder().decode(WireOutcome.self, from: Data(words[2].utf8)),
        let outcome = wire.outcome
      else { return nil }
      self = .outcome(unit: Unit(words[1]), outcome)
    default:
      return nil
    }
  }
}

extension JSONEncoder {
  /// An encoder with sorted keys, so that the same outcome is always the same line.
  static var sortedKeys: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}
