import ObservationCore
import OpenCombine

/// An observable value stored in an `@Published` property of an OpenCombine `ObservableObject`.
///
/// `@Published` publishes in `willSet`: observers run before the new value is stored, and the
/// object's synthesized `objectWillChange` fires before that, once per mutation. A new
/// subscriber to `$value` receives the current value at once.
public final class PublishedObservable<Value>: ObservableObject, AggregatingObservableValue {
  /// The published property.
  @Published public var value: Value

  /// Creates an object whose published `value` starts as `initialValue`.
  public init(_ initialValue: Value) {
    _value = Published(initialValue: initialValue)
  }

  /// Subscribes `handler` to `$value` with `sink`.
  public func observe(_ handler: @escaping (Value) -> Void) -> AnyCancellable {
    $value.sink(receiveValue: handler)
  }

  /// Subscribes `handler` to `objectWillChange` with `sink`.
  public func observeObjectWillChange(_ handler: @escaping () -> Void) -> AnyCancellable {
    objectWillChange.sink { _ in handler() }
  }
}
