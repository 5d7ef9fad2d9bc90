/// Every row a tool measures, made once: its backends in report order, then the reference rows
/// beside them.
///
/// The tool makes one and hands it to everything that looks a row up by name: the sweep, the
/// cell child process and `ab`. A cell names its row, and a reference row's cell is found here
/// exactly as a backend's is.
package struct MeasuredRows: Sendable {
  /// The backends, in report order.
  package let backends: [MeasuredBackend]
  /// The reference rows, in report order (that of `ReferenceRow`).
  package let references: [MeasuredBackend]
  /// The backends, then the reference rows.
  package let all: [MeasuredBackend]

  /// The rows of `backends` and the reference rows.
  ///
  /// - Complexity: O(*b*) for *b* backends.
  package init(
    backends: [MeasuredBackend], references: [MeasuredBackend] = MeasuredBackend.references
  ) {
    self.backends = backends
    self.references = references
    all = backends + references
  }

  /// The row called `name`, a backend or a reference row, or `nil`.
  ///
  /// - Complexity: O(*r*) for *r* rows.
  package func row(named name: String) -> MeasuredBackend? { all.row(named: name) }

  /// The same rows with only the backends `names` holds, in report order; every reference row
  /// stays.
  ///
  /// - Complexity: O(*b* · *n*) for *b* backends and *n* names.
  package func selecting(_ names: [String]) -> MeasuredRows {
    MeasuredRows(backends: backends.filter { names.contains($0.name) }, references: references)
  }
}
