/// A kind of observable value: the unit the conformance suite checks and the harness measures.
///
/// A backend names itself, declares its ``BackendCapabilities`` and makes fresh subjects. The
/// suite makes a new subject for every check, so no state leaks from one rule to another.
///
/// ```swift
/// struct MyBackend: ObservationBackend {
///   var name: String { "my-observers" }
///   var capabilities: BackendCapabilities { ... }
///   func makeSubject(initialValue: Int) -> MyObservers<Int> { MyObservers(initialValue) }
/// }
/// ```
public protocol ObservationBackend {
  /// The subject type used by every rule on `Int` values and by the measured loops.
  associatedtype Subject: ObservableValue<Int>

  /// A filename-safe identifier such as `linked-list` (lower case, digits and `-`).
  var name: String { get }

  /// What the backend promises.
  var capabilities: BackendCapabilities { get }

  /// Makes a fresh subject holding `initialValue`, with no observers.
  func makeSubject(initialValue: Int) -> Subject

  /// Makes a fresh subject for another value type, or `nil` if the backend only supports `Int`.
  ///
  /// The equality rules (EQ) use it to check `String`, class and non-`Equatable` values; a
  /// backend that returns `nil` has those parts reported as not applicable.
  /// The default implementation returns `nil`.
  func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?

  /// Lets the deliveries this backend has scheduled for the calling thread run until
  /// `condition` holds or `timeout` passes, and returns whether `condition` holds.
  ///
  /// An asynchronous backend (one that does not declare `synchronousDelivery`) implements it by
  /// running whatever delivers its values: a run loop, an executor. The harness calls it after
  /// each write, so that what it measures ends when the observers have seen the value, not when
  /// `set` returns; the conformance rules call it before they look at what was delivered. The
  /// default implementation, right for a synchronous backend, only evaluates `condition`.
  ///
  /// - Complexity: up to `timeout` of waiting.
  @discardableResult
  func awaitDelivery(until condition: () -> Bool, timeout: Duration) -> Bool

  /// Lets every delivery this backend has already scheduled for the calling thread run, and
  /// returns whether none was left (`false` if `timeout` passed first).
  ///
  /// The conformance rules call it before they check that something did *not* arrive, so a
  /// late delivery is not taken for one caused by the next write. An asynchronous backend that
  /// can see its own queue (an executor's pending jobs) waits exactly as long as it must,
  /// however slow the machine; the default implementation, which cannot see a queue, lets the
  /// backend deliver for 50 ms (``awaitDelivery(until:timeout:)``) and returns `true`.
  ///
  /// - Complexity: up to `timeout` of waiting.
  @discardableResult
  func awaitScheduledDeliveries(timeout: Duration) -> Bool
}

extension ObservationBackend {
  /// Returns `nil`: the backend offers only `Int` subjects.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    nil
  }

  /// Evaluates `condition` and returns at once: delivery is synchronous.
  @inlinable
  @discardableResult
  public func awaitDelivery(until condition: () -> Bool, timeout: Duration) -> Bool {
    condition()
  }

  /// Lets the backend deliver for 50 ms, or `timeout` if that is shorter, and returns `true`:
  /// a backend whose queue cannot be seen gets a fixed turn.
  @discardableResult
  public func awaitScheduledDeliveries(timeout: Duration) -> Bool {
    awaitDelivery(until: { false }, timeout: min(timeout, .milliseconds(50)))
    return true
  }
}
