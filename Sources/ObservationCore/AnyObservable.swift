/// A type-erased, read-only handle to an observable value.
///
/// A protocol cannot declare a property wrapper such as `@Published`, so apps expose a read-only
/// handle instead (in Combine, an `AnyPublisher`). `AnyObservable` is Observatory's version:
/// it can read the current value and observe it, and offers no way to write.
///
/// ```swift
/// protocol PlayerModel {
///   var title: AnyObservable<String> { get }
/// }
/// final class Player: PlayerModel {
///   private let titleSubject = LinkedListObservers("")
///   var title: AnyObservable<String> { titleSubject.eraseToAnyObservable() }
/// }
/// ```
///
/// The handle keeps the underlying subject alive. Completion, where the underlying subject
/// supports it, is forwarded (see ``observe(_:onCompletion:)``).
///
/// Every call goes through one indirect call; the harness's `erased` workload prices it.
public struct AnyObservable<Value> {
  @usableFromInline
  internal let _get: () -> Value
  @usableFromInline
  internal let _observe: (@escaping (Value) -> Void) -> AnyObservationToken
  @usableFromInline
  internal let _observeWithCompletion:
    ((@escaping (Value) -> Void, @escaping () -> Void) -> AnyObservationToken)?
  /// Whether the underlying subject replays later (see ``ObservableValue/replaysLater``).
  public let replaysLater: Bool

  /// Erases `subject`.
  public init<Subject: ObservableValue>(_ subject: Subject) where Subject.Value == Value {
    _get = { subject.value }
    _observe = { AnyObservationToken(subject.observe($0)) }
    replaysLater = subject.replaysLater
    if let completable = subject as? any CompletableObservableValue<Value> {
      _observeWithCompletion = Self.completionForwarder(completable)
    } else {
      _observeWithCompletion = nil
    }
  }

  /// A handle made of two closures, for a type that serves reads and observations its own way
  /// (an adapter over another library's read-only type, say).
  ///
  /// - Parameters:
  ///   - value: returns the current value.
  ///   - observe: registers a new, independent observer.
  ///   - replaysLater: see ``ObservableValue/replaysLater``.
  public init(
    value: @escaping () -> Value,
    observe: @escaping (@escaping (Value) -> Void) -> AnyObservationToken,
    replaysLater: Bool = false
  ) {
    _get = value
    _observe = observe
    _observeWithCompletion = nil
    self.replaysLater = replaysLater
  }

  private static func completionForwarder<C: CompletableObservableValue>(
    _ subject: C
  )
    -> (@escaping (Value) -> Void, @escaping () -> Void) -> AnyObservationToken
  where C.Value == Value {
    { AnyObservationToken(subject.observe($0, onCompletion: $1)) }
  }

  /// The current value.
  @inlinable
  public var value: Value { _get() }

  /// Registers `handler` as a new observer of the underlying subject.
  @inlinable
  public func observe(_ handler: @escaping (Value) -> Void) -> AnyObservationToken {
    _observe(handler)
  }

  /// Whether the underlying subject can complete.
  public var supportsCompletion: Bool { _observeWithCompletion != nil }

  /// Registers an observer of values and of completion, or returns `nil` if the underlying
  /// subject cannot complete.
  public func observe(
    _ handler: @escaping (Value) -> Void, onCompletion: @escaping () -> Void
  ) -> AnyObservationToken? {
    _observeWithCompletion?(handler, onCompletion)
  }
}

extension ObservableValue {
  /// Returns a read-only, type-erased handle to this subject: ``AnyObservable/init(_:)``.
  ///
  /// - Complexity: O(1).
  public func eraseToAnyObservable() -> AnyObservable<Value> {
    AnyObservable(self)
  }

  /// Returns a send-only handle that writes to this subject: ``ObservationInput/init(_:)``.
  ///
  /// - Complexity: O(1).
  public func eraseToInput() -> ObservationInput<Value> {
    ObservationInput(self)
  }
}
