import Foundation

/// A place where input from outside meets Observatory's code, as a libFuzzer target: the bytes
/// of one input are read the way the tool reads a file or a message, and whatever reads must
/// hold more than "it did not crash" where a property can say more (a report written back
/// reads to the same rows; a printed number parses back within its printed precision).
///
/// `observatory-fuzz` runs one target over the fuzzer's inputs (a build with
/// `-sanitize=fuzzer`) or over given files (any build); the tests replay every input kept in
/// `Fuzzing/Corpus/` through ``check(_:)``, so that a crash the fuzzer once found stays found.
///
/// ```swift
/// try FuzzTarget.reportReader.check(Array("schema,backend\n".utf8))
/// ```
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// A CSV report of any schema this tool reads (`table`, `compare`, `history`, `report`):
  /// read; if it reads, written back and read again to the same text; then every way a
  /// person reads it (its costs, a comparison with itself, the page and its charts), and both
  /// exports (every measured cell once, with its cost).
  case reportReader = "report-reader"
  /// The conformance matrix's CSV (`report --conformance`, the pinned outcomes): read; if it
  /// reads, written back and read again to the same rows.
  case conformanceMatrix = "conformance-matrix"
  /// A cell request, the arguments of a cell process, one per NUL-separated part: parsed; if
  /// it parses, its arguments parse again to the same request.
  case cellRequest = "cell-request"
  /// A cell process's JSON reply: decoded; if it decodes, encoded and decoded again to the
  /// same reply.
  case cellReply = "cell-reply"
  /// Several reports, separated by a form feed (`\u{0C}`) line, as `report` and `history` read
  /// a series: each read, then the trend page of those that read, at the size and in the mode
  /// the input's first byte picks.
  case reportSeries = "report-series"
  /// Every 8 bytes a `Double` bit pattern, through every formatter a person reads (times,
  /// ratios, percentages, counts, the CSV's numbers): none traps, none prints an unbounded
  /// line, and each parses back within its printed precision.
  case readableNumbers = "readable-numbers"
  /// The linked-list backend against the reference model: DIFF-01's scripts drawn from the
  /// input (``DifferentialFuzzer``; over two subjects when the first byte's second bit is
  /// set), a finding wherever the histories differ.
  case linkedListModel = "model-linked-list"
  /// The dense backend against the reference model, as ``linkedListModel``.
  case denseModel = "model-dense"
  /// The key-path backend against the reference model and the nested path's history: DIFF-01's
  /// scripts, or DIFF-02's when the input's first byte is odd.
  case keyPathModel = "model-key-path"

  /// Reads `input` as the target's input and checks what the target promises.
  ///
  /// A malformed input is no finding: refusing it with an error is what the readers must do.
  /// A finding is a property broken on an input that was accepted; a crash traps here as it
  /// would in the tool (the fuzzer records it).
  ///
  /// - Throws: ``FuzzFinding`` saying which property broke and on what.
  /// - Complexity: the target's reader's, O(*b*) for *b* bytes in every target but
  ///   ``reportReader``, which also draws the page: O(*r* log *r*) for *r* rows.
  public func check(_ input: [UInt8]) throws(FuzzFinding) {
    switch self {
    case .reportReader: try Self.checkReport(input)
    case .conformanceMatrix: try Self.checkMatrix(input)
    case .cellRequest: try Self.checkCellRequest(input)
    case .cellReply: try Self.checkCellReply(input)
    case .reportSeries: try Self.checkSeries(input)
    case .readableNumbers: try Self.checkReadableNumbers(input)
    case .linkedListModel, .denseModel, .keyPathModel: try Self.checkModel(self, input)
    }
  }
}

/// A property a fuzz target checks, broken on an input the reader accepted.
public struct FuzzFinding: Error, CustomStringConvertible, Sendable {
  /// The property and how it broke, in one line.
  public let description: String

  /// A finding described by `description`.
  public init(_ description: String) { self.description = description }
}

extension FuzzTarget {
  /// The environment variable that names the target of a libFuzzer build of
  /// `observatory-fuzz`, whose arguments are libFuzzer's.
  public static let environmentName = "OBSERVATORY_FUZZ_TARGET"

  /// The target ``environmentName`` names, read once; `nil` if it names none.
  public static let fromEnvironment: FuzzTarget? = ProcessInfo.processInfo
    .environment[environmentName].flatMap(FuzzTarget.init(rawValue:))
}
