import ObservationCore

/// The linked-list backend: ``LinkedListObservers``, the `@Published` backport.
///
/// Declares didSet timing, replay of the current value, delivery of every value in observer
/// and value order (also under reentrancy), immediate cancellation, cancellation on token
/// release, and unbounded reentrancy (nested writes are trampolined). It is not thread-safe.
public struct LinkedListStrategy: ObservationBackend, Sendable {
  /// Creates the backend descriptor.
  public init() {}

  /// `linked-list`.
  public var name: String { "linked-list" }

  /// What ``LinkedListObservers`` promises.
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .replaysCurrentValue, .deliversEveryValue, .synchronousDelivery, .preservesObserverOrder,
        .preservesValueOrderUnderReentrancy, .immediateCancellation, .cancelsOnTokenDeinit,
      ],
      maxReentrancyDepth: .unbounded)
  }

  /// A new ``LinkedListObservers`` holding `initialValue`.
  @inlinable
  public func makeSubject(initialValue: Int) -> LinkedListObservers<Int> {
    LinkedListObservers(initialValue)
  }

  /// A new ``LinkedListObservers`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    LinkedListObservers(initialValue)
  }
}
