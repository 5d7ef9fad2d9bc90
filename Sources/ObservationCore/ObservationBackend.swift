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
}
