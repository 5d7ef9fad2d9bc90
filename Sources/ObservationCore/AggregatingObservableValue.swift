/// An observable value that lives on an object offering an object-level "will change" signal,
/// like `ObservableObject.objectWillChange`.
///
/// Backends that declare ``Capability/aggregatedChangeSignal`` conform so that the rules TIM-03
/// and AGG-01 can observe the aggregated signal beside the per-property observers; the
/// capability's documentation says when the signal fires. DIFF-01's aggregate scripts observe it
/// on the backend's own objects of two properties (`PropertyPairFixture`).
public protocol AggregatingObservableValue<Value>: ObservableValue {
  /// Registers `handler` for the object-level signal that fires before any observable property
  /// of the owning object changes.
  func observeObjectWillChange(_ handler: @escaping () -> Void) -> Token
}
