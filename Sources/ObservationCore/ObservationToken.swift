/// A handle to one registered observer, used to end that observation.
///
/// Every call to ``ObservableValue/observe(_:)`` returns a new token. Calling ``cancel()`` stops
/// delivery to that observer and releases its handler. Whether releasing the last reference to
/// the token also cancels is a property of the backend, declared as
/// ``Capability/cancelsOnTokenDeinit``.
///
/// Tokens are classes so that a backend can tie cancellation to the token's lifetime, the way
/// Combine's `AnyCancellable` does.
public protocol ObservationToken: AnyObject {
  /// Ends the observation this token stands for.
  ///
  /// Calling `cancel()` more than once, or after the observed value is gone, does nothing.
  func cancel()
}
