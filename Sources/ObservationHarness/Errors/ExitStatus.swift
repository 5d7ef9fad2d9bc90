/// Every status the tool's process exits with, each with one meaning whatever the command, so
/// that a script can tell them apart; the documentation and the `--help` texts name these.
///
/// A process stopped by a signal it handles (SIGINT, SIGTERM) exits with 128 + the signal's
/// number instead, as a shell reports it.
package enum ExitStatus: Int32, CaseIterable, Sendable {
  /// All went well: for `compare`, `ab` and `baseline check`, no regression.
  case success = 0
  /// A usage or input error, or anything else that went wrong, said in one line on standard
  /// error; `conformance` when a backend written in the package fails a rule it declares.
  case failure = 1
  /// `compare` or `ab` found a regression (whatever the other cells say), or `baseline check`
  /// a count that moved.
  case regression = 2
  /// A cell process (`observatory cell`, which the tool starts itself) was handed a request of
  /// another ``CellRequest/protocolVersion``: the runner reports two builds that cannot be
  /// paired. Builds of other versions rely on this number, so it never changes.
  case incompatibleCellRequest = 3
}
