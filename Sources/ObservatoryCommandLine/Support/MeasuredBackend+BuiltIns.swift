import ObservationBackends
import ObservationCore
import ObservationHarness

extension MeasuredBackend {
  /// Every built-in backend, in the catalog's order (`BackendCatalog`), each made with the
  /// initializer a third party's backend uses.
  package static var builtIns: [MeasuredBackend] {
    var collector = BuiltInCollector()
    BackendCatalog.forEach(&collector)
    return collector.rows
  }

  private struct BuiltInCollector: BackendVisitor {
    var rows: [MeasuredBackend] = []
    mutating func visit<Backend: ObservationBackend>(
      _ backend: Backend, _ description: BackendDescription
    ) {
      rows.append(MeasuredBackend(backend, description))
    }
  }
}
