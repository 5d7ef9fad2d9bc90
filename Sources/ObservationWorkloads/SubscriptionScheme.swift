import ObservationCore

/// How a driver begins and ends one observation of a backend's subject: through the contract's
/// token (``TokenSubscriptions``, every backend), or through a subscription of the subject's
/// own that the contract cannot express, such as a handle that is a value rather than an
/// object.
///
/// ``Drivers/subscribe(_:through:n:probe:scale:)`` and
/// ``Drivers/cancel(_:through:n:pattern:seed:probe:scale:)`` run the same loop whatever the
/// scheme, so two rows that differ only in their scheme differ in a report only by what the
/// subscription costs.
///
/// ```swift
/// struct Handles<Value>: SubscriptionScheme, Sendable {
///   func subscribe(
///     _ subject: MyObservers<Value>, _ handler: @escaping (Value) -> Void
///   ) -> MyObservers<Value>.Handle { subject.addObserver(handler) }
///   func cancel(_ handle: MyObservers<Value>.Handle, of subject: MyObservers<Value>) {
///     subject.removeObserver(handle)
///   }
/// }
/// let row = MeasuredBackend(
///   MyBackend(), subscribingThrough: Handles<Int>(), named: "my-backend-handles",
///   capabilities: MyBackend().handleCapabilities)
/// ```
public protocol SubscriptionScheme {
  /// The subject type observed. Its value type is not constrained here (the drivers observe
  /// subjects of `Int`), so that a handler spelled `(Subject.Value) -> Void` has the
  /// representation `observe`'s has.
  associatedtype Subject: ObservableValue
  /// What a subscription returns and its cancellation takes.
  associatedtype Subscription

  /// Begins an observation of `subject` that calls `handler` with each later write.
  ///
  /// `handler`'s type is spelled with `Subject.Value`, as `observe`'s is, so that the
  /// closure a driver writes reaches the subject in the representation the subject keeps,
  /// without a reabstraction thunk (an allocation per observer) in between. A scheme of a
  /// concrete subject keeps that by being generic over the value type (see the example).
  ///
  /// - Complexity: the subject's.
  func subscribe(
    _ subject: Subject, _ handler: @escaping (Subject.Value) -> Void
  ) -> Subscription

  /// Ends the observation `subscription` names, which `subject` began.
  ///
  /// - Complexity: the subject's.
  func cancel(_ subscription: Subscription, of subject: Subject)
}

/// The contract's scheme: `ObservableValue.observe(_:)` and `ObservationToken.cancel()`.
public struct TokenSubscriptions<Subject: ObservableValue>: SubscriptionScheme {
  /// The scheme of `Subject`.
  @inlinable
  public init() {}

  /// `subject.observe(handler)`.
  ///
  /// - Complexity: the subject's `observe`.
  @inlinable
  @inline(__always)
  public func subscribe(
    _ subject: Subject, _ handler: @escaping (Subject.Value) -> Void
  ) -> Subject.Token {
    subject.observe(handler)
  }

  /// `token.cancel()`.
  ///
  /// - Complexity: the token's `cancel`.
  @inlinable
  @inline(__always)
  public func cancel(_ token: Subject.Token, of subject: Subject) {
    token.cancel()
  }
}
