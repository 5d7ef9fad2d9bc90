import Foundation
import ObservationCore
import OpenCombine

/// An observable value backed by OpenCombine's `PassthroughSubject`.
///
/// A passthrough subject keeps no value, so this wrapper stores the latest write (under a
/// lock) and then sends it: didSet timing, no replay. Observers subscribe with `sink`, and the
/// returned `AnyCancellable` is the token.
public final class PassthroughObservable<Value>: CompletableObservableValue, ObservableValueAdapter
{
  /// The OpenCombine subject every observer subscribes to.
  public let subject = PassthroughSubject<Value, Never>()
  private let lock = NSLock()
  private var stored: Value

  /// Creates a subject whose `value` starts as `initialValue`.
  public init(_ initialValue: Value) {
    stored = initialValue
  }

  /// The latest value written. Setting it stores the value, then sends it to every subscriber.
  ///
  /// - Complexity: O(*n*) for *n* subscribers, plus a copy of the subscriber set.
  public var value: Value {
    get { lock.withLock { stored } }
    set {
      lock.withLock { stored = newValue }
      subject.send(newValue)
    }
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

  /// The wrapper stores every write, delivered or not.
  public var valueAfterCompletion: ValueAfterCompletionPolicy { .stored }

  /// The OpenCombine subject: what an app holds, and what subscriptions retain.
  public var adaptedObject: AnyObject { subject }
}
