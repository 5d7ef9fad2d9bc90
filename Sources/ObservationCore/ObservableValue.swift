/// A value that can be read, written and observed: the contract every backend implements.
///
/// A backend is an observable value holding one `Value`. Observers register a closure with
/// ``observe(_:)`` and get an ``ObservationToken`` back; writes through ``value`` are delivered
/// to the registered closures according to the backend's declared ``BackendCapabilities``
/// (before or after the store, with or without replay, synchronously or not).
///
/// The protocol is deliberately small: a third-party backend implements one property and one
/// method. Generic drivers such as the harness workloads call it through a generic parameter,
/// never through `any ObservableValue`, so the calls specialize to direct calls.
///
/// ```swift
/// let subject = LinkedListObservers(0)
/// let token = subject.observe { print("now", $0) }   // prints "now 0" if the backend replays
/// subject.value = 1                                    // prints "now 1"
/// token.cancel()
/// ```
public protocol ObservableValue<Value>: AnyObject {
  /// The type of the observed value.
  associatedtype Value
  /// The token type returned by ``observe(_:)``.
  associatedtype Token: ObservationToken

  /// The current value. Setting it notifies the observers.
  var value: Value { get set }

  /// Registers `handler` as a new, independent observer and returns the token that ends it.
  ///
  /// Registering the identical closure twice creates two observers.
  func observe(_ handler: @escaping (Value) -> Void) -> Token

  /// Whether a new observer gets the current value later, on a later turn of the observing
  /// thread's loop, rather than during ``observe(_:)`` or not at all.
  ///
  /// Combinators that otherwise read ``value`` after observing, such as
  /// ``AnyObservable/flatMapLatest(_:)``, wait for that replay instead, so that the current
  /// value is not delivered twice. The default is `false`.
  var replaysLater: Bool { get }

  /// Returns a read-only, type-erased handle to this subject.
  ///
  /// A requirement with a default implementation (``AnyObservable/init(_:)``), so that a type
  /// offering its own handle is reached through generic code too, and the conformance suite
  /// (ERASE-01, ERASE-02) tests the handle apps get from the concrete type.
  ///
  /// - Complexity: O(1).
  func eraseToAnyObservable() -> AnyObservable<Value>

  /// Returns a send-only handle that writes to this subject.
  ///
  /// A requirement with a default implementation (``ObservationInput/init(_:)``); see
  /// ``eraseToAnyObservable()``.
  ///
  /// - Complexity: O(1).
  func eraseToInput() -> ObservationInput<Value>
}

extension ObservableValue {
  /// `false`: the observer gets the current value during `observe`, or not at all.
  public var replaysLater: Bool { false }
}

/// An observable value that can report how many observers it currently holds.
///
/// Conformance rules use this hook to prove that cancelled observers leave nothing behind.
public protocol ObserverCounting: AnyObject {
  /// The number of live observers (cancelled observers excluded).
  var observerCount: Int { get }
}

/// An observable value that adapts an object of another library (a Combine subject, say).
///
/// Lifetime rules (MEM-03, MEM-04, CAN-07) watch the adapted object, since that is what an app
/// holds and what the library's tokens may retain; the adapter itself is an implementation
/// detail.
public protocol ObservableValueAdapter: AnyObject {
  /// The object whose lifetime the memory rules watch.
  var adaptedObject: AnyObject { get }
}
