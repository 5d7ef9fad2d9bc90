import ObservationCore

/// The thread-safe sibling of ``DenseStrategy``: ``SynchronizedDenseObservers``.
///
/// Declares what ``DenseStrategy`` declares, plus thread safety and serialized delivery; a
/// write that finds another thread delivering is handed to it (an emitter loop).
public struct SynchronizedDenseStrategy: ObservationBackend, Sendable {
  /// Whether its subjects replay the current value to a new observer.
  public let replays: Bool

  /// Creates the backend descriptor; `replays` makes subjects that replay.
  public init(replays: Bool = false) { self.replays = replays }

  /// `dense-synchronized`, or `dense-synchronized-replaying`.
  public var name: String { replays ? "dense-synchronized-replaying" : "dense-synchronized" }

  /// What ``SynchronizedDenseObservers`` promises.
  public var capabilities: BackendCapabilities {
    var flags = DenseStrategy(replays: replays).capabilities.flags
    flags.formUnion([.threadSafe, .serializedDelivery, .handsOffContendedWrites])
    return BackendCapabilities(timing: .didSet, flags, maxReentrancyDepth: .unbounded)
  }

  /// A new ``SynchronizedDenseObservers`` holding `initialValue`.
  @inlinable
  public func makeSubject(initialValue: Int) -> SynchronizedDenseObservers<Int> {
    SynchronizedDenseObservers(initialValue, replaysCurrentValue: replays)
  }

  /// A new ``SynchronizedDenseObservers`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    SynchronizedDenseObservers(initialValue, replaysCurrentValue: replays)
  }
}
