import DenseBackend
import ObservationBackends
import ObservationCore
import ObservationHarness

extension MeasuredBackend {
  /// Every built-in backend, in the catalog's order (`BackendCatalog`), each made with the
  /// initializer a third party's backend uses, and after each the rows of ``measuredOnly``
  /// that follow it (`dense-handles` after `dense`).
  package static var builtIns: [MeasuredBackend] {
    var collector = BuiltInCollector()
    BackendCatalog.forEach(&collector)
    return collector.rows
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
      rows += MeasuredBackend.measuredOnly.filter { $0.following == backend.name }.map(\.row)
    }
  }
}
