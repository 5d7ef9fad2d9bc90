import DenseBackend
import ObservationBackends
import ObservationCore
import ObservationHarness

extension MeasuredBackend {
  /// Every built-in backend, in the catalog's order (`BackendCatalog`), each made with the
  /// initializer a third party's backend uses, and after each the rows of ``measuredOnly``
  /// that follow it (`dense-handles` after `dense`).
  ///
  /// This module holds the rows and nothing else: the drivers are specialized for each backend
  /// where its row is made, and the compiler's function merging, which can turn a function the
  /// measured loop calls into a thunk, depends on everything else in that module. Built in the
  /// command-line module, the rows' counts moved with edits to it (Results/README.md, the
  /// instruction counts).
  ///
  /// - Complexity: O(*b* × *m*) for *b* backends and *m* measured-only rows.
  package static var builtIns: [MeasuredBackend] {
    var collector = BuiltInCollector()
    BackendCatalog.forEach(&collector)
    var rows = collector.rows
    for (following, row) in measuredOnly.reversed() {
      guard let index = rows.firstIndex(where: { $0.name == following }) else {
        preconditionFailure("\(row.name) follows \(following), which the catalog does not have")
      }
      rows.insert(row, at: index + 1)
    }
    return rows
  }

  /// The rows the harness measures but the conformance suite cannot run on, since they do not
  /// subscribe through the contract's tokens, each with the backend whose subjects it uses and
  /// which it follows in ``builtIns``: `dense-handles` (see ``denseHandles``).
  package static var measuredOnly: [(following: String, row: MeasuredBackend)] {
    [(DenseStrategy().name, denseHandles)]
  }

  private struct BuiltInCollector: BackendVisitor {
    var rows: [MeasuredBackend] = []
    mutating func visit<Backend: ObservationBackend & Sendable>(
      _ backend: Backend, _ description: BackendDescription
    ) {
      rows.append(MeasuredBackend(backend, description))
    }
  }
}
