import DenseBackend
import ObservationBackends
import ObservationCore
import ObservationHarness

extension MeasuredBackend {
  /// Every built-in backend, in the catalog's order (`BackendCatalog`), each made with the
  /// initializer a third party's backend uses; after `dense`, `dense-handles`, its subjects
  /// through handles instead of tokens (measured only: see ``denseHandles``).
  package static var builtIns: [MeasuredBackend] {
    var collector = BuiltInCollector()
    BackendCatalog.forEach(&collector)
    var rows = collector.rows
    let dense = rows.firstIndex { $0.name == DenseStrategy().name } ?? rows.endIndex - 1
    rows.insert(denseHandles, at: dense + 1)
    return rows
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
