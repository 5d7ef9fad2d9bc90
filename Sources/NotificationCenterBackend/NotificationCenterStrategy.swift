import ObservationCore

/// Foundation's `NotificationCenter` as a backend: ``NotificationCenterValue``.
///
/// Declared from what the center documents: a post without a queue calls every matching
/// observer synchronously on the posting thread, after the store (didSet), every time; nested
/// posts recurse. Observers stay registered until removed, so releasing the token does not
/// cancel. Observer order is not documented, so it is probed.
public struct NotificationCenterStrategy: ObservationBackend, Sendable {
  /// Creates the backend descriptor.
  public init() {}

  /// `notification-center`.
  public var name: String { "notification-center" }

  /// What `NotificationCenter` documents for block observers without a queue.
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet, [.deliversEveryValue, .synchronousDelivery],
      maxReentrancyDepth: .bounded(100))
  }

  /// A new ``NotificationCenterValue`` on the default center.
  public func makeSubject(initialValue: Int) -> NotificationCenterValue<Int> {
    NotificationCenterValue(initialValue)
  }

  /// A new ``NotificationCenterValue`` of any value type on the default center.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    NotificationCenterValue(initialValue)
  }
}
