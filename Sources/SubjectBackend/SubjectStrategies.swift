import ObservationCore

/// `PassthroughSubject` as a backend: ``PassthroughObservable``.
///
/// Declared from Combine's documented behaviour: no replay, every value delivered synchronously
/// with didSet timing (the wrapper stores, then sends), cancellation on `AnyCancellable`
/// release, completion, thread-safe sending. A subscription holds its subject strongly, so a
/// token keeps the subject alive. Combine documents neither observer order nor what a cancel
/// during delivery does, so those are probed, not declared. Delivery recurses for nested sends,
/// so reentrancy is bounded by the stack.
public struct PassthroughSubjectStrategy: ObservationBackend, Sendable {
  /// Creates the backend descriptor.
  public init() {}

  /// `combine-passthrough`.
  public var name: String { "combine-passthrough" }

  /// What Combine documents for `PassthroughSubject`.
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .deliversEveryValue, .synchronousDelivery, .cancelsOnTokenDeinit, .tokenRetainsSubject,
        .supportsCompletion, .threadSafe,
      ],
      maxReentrancyDepth: .bounded(100))
  }

  /// A new ``PassthroughObservable``.
  public func makeSubject(initialValue: Int) -> PassthroughObservable<Int> {
    PassthroughObservable(initialValue)
  }

  /// A new ``PassthroughObservable`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    PassthroughObservable(initialValue)
  }
}

/// `CurrentValueSubject` as a backend: ``CurrentValueObservable``.
///
/// As ``PassthroughSubjectStrategy``, plus replay of the current value to each new subscriber.
public struct CurrentValueSubjectStrategy: ObservationBackend, Sendable {
  /// Creates the backend descriptor.
  public init() {}

  /// `combine-current-value`.
  public var name: String { "combine-current-value" }

  /// What Combine documents for `CurrentValueSubject`.
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .replaysCurrentValue, .deliversEveryValue, .synchronousDelivery, .cancelsOnTokenDeinit,
        .tokenRetainsSubject, .supportsCompletion, .threadSafe,
      ],
      maxReentrancyDepth: .bounded(100))
  }

  /// A new ``CurrentValueObservable``.
  public func makeSubject(initialValue: Int) -> CurrentValueObservable<Int> {
    CurrentValueObservable(initialValue)
  }

  /// A new ``CurrentValueObservable`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    CurrentValueObservable(initialValue)
  }
}

/// `@Published` inside an `ObservableObject` as a backend: ``PublishedObservable``.
///
/// Declared from Combine's documented behaviour: willSet timing, replay of the current value to
/// a new subscriber of `$value`, `objectWillChange` as the aggregated signal, cancellation on
/// `AnyCancellable` release. The token does not keep the owning object alive. A published
/// property cannot complete, and its storage is not protected against concurrent writes.
public struct PublishedPropertyStrategy: ObservationBackend, Sendable {
  /// Creates the backend descriptor.
  public init() {}

  /// `combine-published`.
  public var name: String { "combine-published" }

  /// What Combine documents for `@Published`.
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .willSet,
      [
        .replaysCurrentValue, .deliversEveryValue, .synchronousDelivery, .cancelsOnTokenDeinit,
        .aggregatedChangeSignal,
      ],
      maxReentrancyDepth: .bounded(100))
  }

  /// A new ``PublishedObservable``.
  public func makeSubject(initialValue: Int) -> PublishedObservable<Int> {
    PublishedObservable(initialValue)
  }

  /// A new ``PublishedObservable`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    PublishedObservable(initialValue)
  }
}
