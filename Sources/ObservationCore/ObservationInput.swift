/// A send-only handle to an observable value: it can write, and offers no way to read or observe.
///
/// Keeping the subject private and handing out an input keeps writers and observers apart
/// (RxSwift calls this `AnyObserver`; Combine has no such type, so apps pass the whole subject).
///
/// ```swift
/// final class SearchModel {
///   private let querySubject = LinkedListObservers("")
///   var query: ObservationInput<String> { querySubject.eraseToInput() }
///   var results: AnyObservable<String> { querySubject.eraseToAnyObservable() }
/// }
/// ```
///
/// The handle keeps the underlying subject alive.
public struct ObservationInput<Value> {
  @usableFromInline
  internal let _send: (Value) -> Void
  @usableFromInline
  internal let _finish: (() -> Void)?

  /// Wraps `subject`; ``send(_:)`` assigns its ``ObservableValue/value``.
  public init<Subject: ObservableValue>(_ subject: Subject) where Subject.Value == Value {
    _send = { subject.value = $0 }
    if let completable = subject as? any CompletableObservableValue<Value> {
      _finish = { completable.complete() }
    } else {
      _finish = nil
    }
  }

  /// A handle made of closures, for a type that takes writes its own way.
  ///
  /// - Parameters:
  ///   - send: writes a value, notifying observers.
  ///   - finish: completes the subject, or `nil` if it cannot complete.
  public init(send: @escaping (Value) -> Void, finish: (() -> Void)? = nil) {
    _send = send
    _finish = finish
  }

  /// Writes `value` to the underlying subject, notifying its observers.
  @inlinable
  public func send(_ value: Value) {
    _send(value)
  }

  /// Whether ``finish()`` does anything: the underlying subject can complete.
  public var supportsCompletion: Bool { _finish != nil }

  /// Completes the underlying subject, if it can complete.
  public func finish() {
    _finish?()
  }
}
