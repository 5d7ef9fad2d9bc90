/// What a row of a report measures: a backend, or the machine (a reference loop). A report of
/// schema 4 says so in its `row_kind` column; an older one's rows are told apart by the names
/// the harness measures its reference rows under (`reference-c`, `reference-c-swift-handler`,
/// `reference-swift-closures`, `reference-async-tasks`).
public enum RowKind: String, CaseIterable, Sendable {
  /// An observation backend.
  case backend
  /// A plain loop, the floor a backend's cost is read against: it measures the machine.
  case reference

  /// The kind of the row called `backend` when nothing else says: a reference row by its name
  /// (``ReferenceRow``), a backend otherwise.
  ///
  /// - Complexity: O(1).
  package init(ofRowNamed backend: String) {
    self = ReferenceRow.isReference(backend) ? .reference : .backend
  }
}

/// The rows of a report that measure the machine, not a backend: loops in C and Swift that
/// bound what any backend can cost. The harness measures them under these names, and a report
/// written before the `row_kind` column is read with them.
package enum ReferenceRow: String, CaseIterable, Sendable {
  /// Function pointers called from an array in C (`notify`), and a C slot map that places a
  /// handler and frees it again (`subscribe`, `cancel`): the physical limit.
  case c = "reference-c"
  /// The handler every backend gets, called from a C loop: the floor for a Swift closure call.
  case cSwiftHandler = "reference-c-swift-handler"
  /// Swift closures called from an array, and appended to one: the floor in Swift.
  case swiftClosures = "reference-swift-closures"
  /// A task per observer, waiting on an `UnsafeContinuation` on the run loop executor the
  /// asynchronous backends deliver on: one write resumes every task (`notify`, timed until the
  /// last has run, with its latency), a task is started to its first suspension (`subscribe`)
  /// and ended by resuming it with an end marker (`cancel`). The asynchronous floor: a backend
  /// that does not deliver synchronously reads its `ratio_to_limit` against this row.
  case asyncTasks = "reference-async-tasks"

  /// The rows' names, in report order.
  package static let names: [String] = allCases.map(\.rawValue)

  /// Whether the row measures the machine's plain speed, which a trend drawn relative to each
  /// report's machine divides by: every row but the asynchronous floor, which measures the
  /// concurrency runtime's scheduling as well (and which reports before it do not have).
  package var measuresMachineSpeed: Bool { self != .asyncTasks }

  /// Whether `backend` names a reference row.
  ///
  /// - Complexity: O(1).
  package static func isReference(_ backend: String) -> Bool {
    ReferenceRow(rawValue: backend) != nil
  }
}
