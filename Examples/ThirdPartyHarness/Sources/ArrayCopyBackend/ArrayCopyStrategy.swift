import ObservationCore

/// The array backend: ``ArrayCopyObservers``, observers in contiguous storage.
///
/// Declares didSet timing, delivery of every value in observer and value order (also under
/// reentrancy), immediate cancellation, cancellation on token release and unbounded reentrancy.
/// It does not replay the current value and is not thread-safe.
public struct ArrayCopyStrategy: ObservationBackend, Sendable {
  /// Creates the backend descriptor.
  public init() {}

  /// `array-copy`.
  public var name: String { "array-copy" }

  /// What ``ArrayCopyObservers`` promises.
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .deliversEveryValue, .synchronousDelivery, .preservesObserverOrder,
        .preservesValueOrderUnderReentrancy, .immediateCancellation, .cancelsOnTokenDeinit,
      ],
      maxReentrancyDepth: .unbounded)
  }

  /// A new ``ArrayCopyObservers`` holding `initialValue`.
  @inlinable
  public func makeSubject(initialValue: Int) -> ArrayCopyObservers<Int> {
    ArrayCopyObservers(initialValue)
  }

  /// A new ``ArrayCopyObservers`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    ArrayCopyObservers(initialValue)
  }
}
