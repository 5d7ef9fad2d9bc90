import ObservationCore
import OpenCombine

/// An observable value backed by OpenCombine's `CurrentValueSubject`.
///
/// Reads and writes go to the subject's own `value` (stored, then sent: didSet timing), and a
/// new subscriber receives the current value at once (replay).
public final class CurrentValueObservable<Value>: CompletableObservableValue, ObservableValueAdapter
{
  /// The OpenCombine subject every observer subscribes to.
  public let subject: CurrentValueSubject<Value, Never>

  /// Creates a subject holding `initialValue`.
  public init(_ initialValue: Value) {
    subject = CurrentValueSubject(initialValue)
  }

  /// The subject's current value; setting it is `subject.value = newValue`.
  ///
  /// - Complexity: O(*n*) for *n* subscribers, plus a copy of the subscriber set.
  public var value: Value {
    get { subject.value }
    set { subject.value = newValue }
  }

  /// Subscribes `handler` with `sink`.
  public func observe(_ handler: @escaping (Value) -> Void) -> AnyCancellable {
    subject.sink(receiveValue: handler)
  }

  /// Subscribes `handler` and `onCompletion` with `sink`.
  public func observe(
    _ handler: @escaping (Value) -> Void, onCompletion: @escaping () -> Void
  ) -> AnyCancellable {
    subject.sink(receiveCompletion: { _ in onCompletion() }, receiveValue: handler)
  }

  /// Sends `.finished`.
  public func complete() {
    subject.send(completion: .finished)
  }

  /// Combine documents `send(_:)` as equivalent to assigning `value`, and a completed subject
  /// as accepting no more values, so both entry points must leave the value as it was.
  public var valueAfterCompletion: ValueAfterCompletionPolicy { .frozen }

  /// Both of `CurrentValueSubject`'s ways of writing: the `value` setter and `send(_:)`.
  public var mutationEntryPoints: [NamedMutation<Value>] {
    [
      NamedMutation("value") { [subject] in subject.value = $0 },
      NamedMutation("send") { [subject] in subject.send($0) },
    ]
  }

  /// The OpenCombine subject: what an app holds, and what subscriptions retain.
  public var adaptedObject: AnyObject { subject }
}
