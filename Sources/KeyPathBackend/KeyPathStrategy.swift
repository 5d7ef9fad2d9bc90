import ObservationCore

/// The key-path registry as a backend: ``KeyPathObservers``, plus native nested observation.
///
/// Declares didSet timing, replay (`.initial`), delivery of every value in observer and value
/// order (writes made during delivery are queued, across every object), immediate
/// cancellation, cancellation on token release, unbounded reentrancy, nested key paths, and
/// `nil` for a weakly held intermediate that deallocates (``WeakTracked``). It is not
/// thread-safe.
public struct KeyPathStrategy: ObservationBackend, Sendable {
  /// Creates the backend descriptor.
  public init() {}

  /// `key-path`.
  public var name: String { "key-path" }

  /// What the registry promises.
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .replaysCurrentValue, .deliversEveryValue, .synchronousDelivery, .preservesObserverOrder,
        .preservesValueOrderUnderReentrancy, .immediateCancellation, .cancelsOnTokenDeinit,
        .nestedKeyPaths, .reportsDeallocatedIntermediates,
      ],
      maxReentrancyDepth: .unbounded)
  }

  /// A new ``KeyPathObservers``.
  public func makeSubject(initialValue: Int) -> KeyPathObservers<Int> {
    KeyPathObservers(initialValue)
  }

  /// A new ``KeyPathObservers`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    KeyPathObservers(initialValue)
  }
}
