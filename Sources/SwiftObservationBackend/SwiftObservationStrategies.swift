import ObservationCore
import RunLoopExecution

/// Swift's `Observation` framework through `withObservationTracking`, re-armed after each
/// change: ``TrackedValue``.
///
/// Declared from what the framework does: `onChange` runs synchronously in the willSet of every
/// change (the adapter re-arms before the handler, so none is missed); no replay; nested writes
/// recurse. The token does not keep the object alive, and releasing it cancels. The framework
/// keeps its registrations in a dictionary, so observer order is probed, not declared; the
/// property storage has no lock, so it is not thread-safe.
public struct SwiftObservationTrackingStrategy: ObservationBackend, Sendable {
  /// Creates the backend descriptor.
  public init() {}

  /// `swift-observation-tracking`.
  public var name: String { "swift-observation-tracking" }

  /// What `withObservationTracking`, re-armed in `onChange`, gives.
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .willSet,
      [.deliversEveryValue, .synchronousDelivery, .immediateCancellation, .cancelsOnTokenDeinit],
      maxReentrancyDepth: .bounded(100))
  }

  /// A new ``TrackedValue``.
  public func makeSubject(initialValue: Int) -> TrackedValue<Int> { TrackedValue(initialValue) }

  /// A new ``TrackedValue`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    TrackedValue(initialValue)
  }
}

/// Swift's `Observation` framework through the `Observations` async sequence: ``ObservedValue``.
///
/// Each observer is a task iterating in the observing thread's run loop, the part the main
/// actor plays in an app. Declared from what the sequence does: transactional (the writes of
/// one synchronous block arrive as one element), so neither every value nor synchronous
/// delivery; the sequence's first element is the current value, so it replays (asynchronously,
/// which rule INIT-01 shows); the iterating task keeps the object alive; releasing the token
/// cancels the task.
/// Nested paths are native: the sequence tracks every property its closure reads.
public struct SwiftObservationsStrategy: ObservationBackend, Sendable {
  /// Creates the backend descriptor.
  public init() {}

  /// `swift-observations`.
  public var name: String { "swift-observations" }

  /// What `Observations` gives.
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .transactional,
      [
        .replaysCurrentValue, .replaysOnLaterTurn, .immediateCancellation, .cancelsOnTokenDeinit,
        .tokenRetainsSubject,
        .nestedKeyPaths,
      ],
      maxReentrancyDepth: .unbounded)
  }

  /// A new ``ObservedValue``.
  public func makeSubject(initialValue: Int) -> ObservedValue<Int> { ObservedValue(initialValue) }

  /// A new ``ObservedValue`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    ObservedValue(initialValue)
  }

  /// Runs the calling thread's run loop, where this backend delivers, until `condition` holds
  /// or `timeout` passes.
  @discardableResult
  public func awaitDelivery(until condition: () -> Bool, timeout: Duration) -> Bool {
    RunLoopExecutor.spin(until: condition, timeout: timeout)
  }

  /// Runs the calling thread's run loop until the jobs of its observing tasks have all run, or
  /// `timeout` passes; returns whether none is left.
  @discardableResult
  public func awaitScheduledDeliveries(timeout: Duration) -> Bool {
    RunLoopExecutor.spinUntilIdle(timeout: timeout)
  }
}
