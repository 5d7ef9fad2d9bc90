import Foundation
import ObservationCore

/// A value whose changes are posted to `NotificationCenter.default`, observed with block-based
/// observers: the way Foundation apps broadcast a change.
///
/// Each write stores the value, then posts ``didChange`` with the object as sender and the new
/// value under ``valueKey`` in `userInfo`. Observers register with
/// `addObserver(forName:object:queue:using:)` for this object and no queue, so they run
/// synchronously on the posting thread. Not thread-safe (the center is; the stored value is
/// not).
public final class NotificationCenterValue<Value>: ObservableValue {
  /// The notification every instance posts after a change.
  public static var didChange: Notification.Name {
    Notification.Name("Observatory.NotificationCenterValue.didChange")
  }
  /// The `userInfo` key of the new value.
  public static var valueKey: String { "value" }

  private let center: NotificationCenter

  /// Creates a value that posts to `center` (the default center unless given).
  public init(_ initialValue: Value, center: NotificationCenter = .default) {
    self.value = initialValue
    self.center = center
  }

  /// The current value. Setting it stores, then posts ``didChange``.
  ///
  /// - Complexity: the center's `post`, which visits the observers registered for the name.
  public var value: Value {
    didSet {
      center.post(name: Self.didChange, object: self, userInfo: [Self.valueKey: value])
    }
  }

  /// Adds a block observer for this object's ``didChange`` notifications.
  ///
  /// The center matches `object` by address: an observer left registered after its object died
  /// hears a new object that reuses the address. The block reads the payload with `as?`, as app
  /// code does, so such an observer ignores a payload of another type (and hears one of the same
  /// type: a hazard of forgetting `removeObserver`, which the token's deinit does not call).
  ///
  /// - Complexity: the center's `addObserver`.
  public func observe(_ handler: @escaping (Value) -> Void) -> NotificationObserverToken {
    let observer = center.addObserver(forName: Self.didChange, object: self, queue: nil) {
      notification in
      guard let value = notification.userInfo?[Self.valueKey] as? Value else { return }
      handler(value)
    }
    return NotificationObserverToken(center: center, observer: observer)
  }
}

/// The observer `addObserver(forName:object:queue:using:)` returned, and the center to remove
/// it from.
///
/// As with Foundation's own token, releasing it does not remove the observer: the center keeps
/// the block until ``cancel()`` removes it.
public final class NotificationObserverToken: ObservationToken {
  private let center: NotificationCenter
  private var observer: (any NSObjectProtocol)?

  init(center: NotificationCenter, observer: any NSObjectProtocol) {
    self.center = center
    self.observer = observer
  }

  /// Removes the observer from the center (`removeObserver`); later calls do nothing.
  ///
  /// - Complexity: the center's `removeObserver`.
  public func cancel() {
    guard let observer else { return }
    self.observer = nil
    center.removeObserver(observer)
  }
}
