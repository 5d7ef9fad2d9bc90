import ObservationReports

/// Every status the tool's process exits with, each with one meaning whatever the command, so
/// that a script can tell them apart; the documentation and the `--help` texts name these.
///
/// A process stopped by a signal it handles (SIGINT, SIGTERM) exits with 128 + the signal's
/// number instead, as a shell reports it.
package enum ExitStatus: Int32, CaseIterable, Sendable {
  /// All went well: no regression, and no cell left `inconclusive` unless accepted.
  case success = 0
  /// A usage or input error, or anything else that went wrong, said in one line on standard
  /// error; `conformance` when a backend written in the package fails a rule it declares.
  case failure = 1
  /// `compare` or `ab` found a regression (whatever the other cells say), or `baseline check`
  /// a count that moved.
  case regression = 2
  /// A cell process (`observatory cell`, which the tool starts itself) was handed a request of
  /// another `CellRequest.protocolVersion`: the runner reports two builds that cannot be
  /// paired. Builds of other versions rely on this number, so it never changes; the harness,
  /// which reads it from its cell processes, names it `CellChild.incompatibleExitStatus`.
  case incompatibleCellRequest = 3
  /// `compare` or `ab` found no regression but could not tell some cells from noise: not a
  /// pass, unless the pipeline accepts it (`--inconclusive-ok`).
  case inconclusive = 4

  /// The status `compare` and `ab` exit with when their comparison concludes `conclusion`:
  /// ``regression`` for a regression, ``inconclusive`` for cells that could not be told from
  /// noise (``success`` when `acceptingInconclusive`), ``success`` otherwise.
  ///
  /// - Complexity: O(1).
  package init(_ conclusion: Comparison.Conclusion, acceptingInconclusive: Bool) {
    switch conclusion {
    case .regression: self = .regression
    case .inconclusive: self = acceptingInconclusive ? .success : .inconclusive
    case .noRegression: self = .success
    }
  }
}
