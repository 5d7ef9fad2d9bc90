import ObservationCore

/// Observatory's own backend: ``DenseObservers``, observers as a dense array of closures with a
/// slot map for O(1) cancellation.
///
/// Declares didSet timing, delivery of every value in observer and value order (also under
/// reentrancy), immediate cancellation, cancellation on token release and unbounded
/// reentrancy; with `replays`, replay of the current value. It is not thread-safe.
public struct DenseStrategy: ObservationBackend, Sendable {
  /// Whether its subjects replay the current value to a new observer.
  public let replays: Bool

  /// Creates the backend descriptor; `replays` makes subjects that replay.
  public init(replays: Bool = false) { self.replays = replays }

  /// `dense`, or `dense-replaying`.
  public var name: String { replays ? "dense-replaying" : "dense" }

  /// What ``DenseObservers`` promises.
  public var capabilities: BackendCapabilities {
    var flags: Set<Capability> = [
      .deliversEveryValue, .synchronousDelivery, .preservesObserverOrder,
      .preservesValueOrderUnderReentrancy, .immediateCancellation, .cancelsOnTokenDeinit,
    ]
    if replays { flags.insert(.replaysCurrentValue) }
    return BackendCapabilities(timing: .didSet, flags, maxReentrancyDepth: .unbounded)
  }

  /// What a subscription made with ``DenseObservers/addObserver(_:)`` keeps of
  /// ``capabilities``: all of it but `cancelsOnTokenDeinit`, since a ``DenseObservers/Handle``
  /// is a value whose release ends nothing.
  public var handleCapabilities: BackendCapabilities {
    var kept = capabilities
    kept.flags.remove(.cancelsOnTokenDeinit)
    return kept
  }

  /// A new ``DenseObservers`` holding `initialValue`.
  @inlinable
  public func makeSubject(initialValue: Int) -> DenseObservers<Int> {
    DenseObservers(initialValue, replaysCurrentValue: replays)
  }

  /// A new ``DenseObservers`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    DenseObservers(initialValue, replaysCurrentValue: replays)
  }
}
