import CInstructionCounting
import CProcessControl
import Foundation
import ObservationReports
import ObservationWorkloads

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The cell process's side of ``CellRequest``: measures one cell in this process, as a
/// ``CellRunner`` asked, and writes the reply the process prints, which ``RunningCell`` reads
/// back with ``outcome(ofReply:)``: request, reply and both their readers are this folder's.
///
/// An executable that runs cells hands the arguments after its `cell` subcommand to
/// ``CellRequest/init(arguments:)`` and the request to ``run(_:among:)``, with the rows it
/// knows (``MeasuredRows``: its backends and the reference rows). It should do nothing else before:
/// the less the process allocates before the cell, the less a timed cell's heap differs from
/// one process to the next.
package enum CellChild {
  /// The exit status of a cell process handed a request of another ``CellRequest/protocolVersion``
  /// (``CellRequestError/incompatible(found:)``): the runner reports the two builds as
  /// incompatible instead of as a failed cell. Builds of other versions rely on this number,
  /// so it never changes; the tool's exit statuses keep it for this one meaning.
  package static let incompatibleExitStatus: Int32 = 3

  /// Measures the cell `request` names, among `rows`, in this process.
  ///
  /// Before measuring, the process asks the kernel to end it with `request.parent`, moves to
  /// `request.cpu` and opens `request.turns`; a counted cell (`metric` `instructions`) must run
  /// under callgrind. With `OBSERVATORY_HEAP_CHURN` set, a churned heap stays allocated while
  /// the cell runs (CI's check that counted cells do not depend on their heap's history).
  ///
  /// - Throws: ``CellChildError`` when the cell cannot be measured here; a failure of the
  ///   backend's own self-check is no error but the outcome's `problem`.
  /// - Complexity: the cell's warm-up and repetitions, within `request.budget` seconds and one
  ///   repetition more.
  package static func run(
    _ request: CellRequest, among rows: MeasuredRows
  ) throws(CellChildError) -> CellOutcome {
    if request.metric == .instructions && instruction_counting_on_valgrind() == 0 {
      throw .cannotMeasure(
        "--metric instructions counts only under valgrind --tool=callgrind"
          + (instruction_counting_available() == 0
            ? ", and this build has no callgrind client requests (install valgrind and rebuild)"
            : "; run the cell through a sweep with --metric instructions"))
    }
    if let parent = request.parent, process_control_die_with_parent(parent) != 0 {
      throw .parentGone
    }
    if let cpu = request.cpu, process_control_pin_to_allowed_cpu(Int32(truncatingIfNeeded: cpu)) < 0
    {
      throw .cannotMeasure("--cpu \(cpu): \(String(cString: strerror(errno)))")
    }
    let turns: TurnTaking?
    do {
      turns = try request.turns.map {
        try TurnTaking(takingFrom: $0.input, passingTo: $0.output)
      }
    } catch {
      throw .cannotMeasure("\(error)")
    }
    let churn = HeapChurn.fromEnvironment()
    defer { withExtendedLifetime(churn) {} }
    guard let outcome = CellExecution.run(request, among: rows.all, turns: turns) else {
      throw .cannotMeasure(
        "unknown backend '\(request.backend)'; this executable knows: "
          + rows.all.map(\.name).joined(separator: ", "))
    }
    return outcome
  }
}

extension CellChild {
  /// The reply a cell process prints on standard output: `outcome`, as JSON.
  ///
  /// - Throws: an `EncodingError` if the outcome holds a value JSON cannot (none it makes).
  /// - Complexity: O(*r*) for *r* repetitions measured.
  package static func reply(_ outcome: CellOutcome) throws -> String {
    String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self)
  }

  /// The outcome a cell process's reply holds.
  ///
  /// - Throws: a `DecodingError` if `reply` is not one (a process of another build, or one
  ///   that printed something else).
  /// - Complexity: O(*b*) for *b* bytes.
  package static func outcome(ofReply reply: Data) throws -> CellOutcome {
    try JSONDecoder().decode(CellOutcome.self, from: reply)
  }
}

/// Why a cell process measures nothing.
package enum CellChildError: Error, Hashable, CustomStringConvertible {
  /// The process that started the cell has ended already, or the request to end with it
  /// failed: the cell measures nothing for nobody.
  case parentGone
  /// The cell cannot be measured in this process; the text says why.
  case cannotMeasure(String)

  package var description: String {
    switch self {
    case .parentGone: "the process that started the cell has ended"
    case .cannotMeasure(let reason): reason
    }
  }
}
