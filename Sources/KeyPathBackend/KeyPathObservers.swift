import ObservationCore

/// One `@Tracked` value observed through the key-path registry: the registry seen through the
/// common contract, so every conformance rule runs on it.
///
/// `observe(_:)` is `observe(\.value, options: [.initial, .new])`: it replays the current value
/// and then reports every write, after the store.
public final class KeyPathObservers<Value>: KeyPathObservable, ObservableValue, ObserverCounting {
  /// This object's registry.
  public let keyPathRegistrar = KeyPathRegistrar()

  /// The observed value.
  @Tracked public var value: Value

  /// Creates a subject holding `initialValue`.
  public init(_ initialValue: Value) {
    _value = Tracked(wrappedValue: initialValue)
  }

  /// Observes ``value`` with `.initial` and `.new`.
  ///
  /// - Complexity: O(1) plus the initial callback.
  public func observe(_ handler: @escaping (Value) -> Void) -> KeyPathObservation {
    let observation = KeyPathObservation()
    observation.start(
      root: self, keyPath: \.value, options: [.initial, .new], leafIsTheValue: true
    ) {
      _, change in
      if let new = change.newValue { handler(new) }
    }
    return observation
  }

  /// The number of live observations of this subject.
  public var observerCount: Int { keyPathRegistrar.observerCount }
}
