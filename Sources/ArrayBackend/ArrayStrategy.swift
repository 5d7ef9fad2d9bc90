import ObservationCore

/// The array backend: ``ArrayObservers``, observers in contiguous storage.
///
/// Declares didSet timing, delivery of every value in observer and value order (also under
/// reentrancy), immediate cancellation, cancellation on token release and unbounded reentrancy.
/// It does not replay the current value and is not thread-safe.
public struct ArrayStrategy: ObservationBackend, Sendable {
  /// Creates the backend descriptor.
  public init() {}

  /// `array`.
  public var name: String { "array" }

  /// What ``ArrayObservers`` promises.
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .deliversEveryValue, .synchronousDelivery, .preservesObserverOrder,
        .preservesValueOrderUnderReentrancy, .immediateCancellation, .cancelsOnTokenDeinit,
      ],
      maxReentrancyDepth: .unbounded)
  }

  /// A new ``ArrayObservers`` holding `initialValue`.
  @inlinable
  public func makeSubject(initialValue: Int) -> ArrayObservers<Int> {
    ArrayObservers(initialValue)
  }

  /// A new ``ArrayObservers`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    ArrayObservers(initialValue)
  }
}
