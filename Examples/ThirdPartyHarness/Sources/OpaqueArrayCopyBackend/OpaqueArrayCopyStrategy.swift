import ObservationCore

/// The array backend: ``OpaqueArrayCopyObservers``, observers in contiguous storage.
///
/// Declares didSet timing, delivery of every value in observer and value order (also under
/// reentrancy), immediate cancellation, cancellation on token release and unbounded reentrancy.
/// It does not replay the current value and is not thread-safe.
public struct OpaqueArrayCopyStrategy: ObservationBackend, Sendable {
  /// Creates the backend descriptor.
  public init() {}

  /// `array-copy-opaque`.
  public var name: String { "array-copy-opaque" }

  /// What ``OpaqueArrayCopyObservers`` promises.
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .deliversEveryValue, .synchronousDelivery, .preservesObserverOrder,
        .preservesValueOrderUnderReentrancy, .immediateCancellation, .cancelsOnTokenDeinit,
      ],
      maxReentrancyDepth: .unbounded)
  }

  /// A new ``OpaqueArrayCopyObservers`` holding `initialValue`.
  public func makeSubject(initialValue: Int) -> OpaqueArrayCopyObservers<Int> {
    OpaqueArrayCopyObservers(initialValue)
  }

  /// A new ``OpaqueArrayCopyObservers`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    OpaqueArrayCopyObservers(initialValue)
  }
}
