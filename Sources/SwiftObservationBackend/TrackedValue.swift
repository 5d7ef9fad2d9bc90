import Observation
import ObservationCore

/// An `@Observable` object holding one value, observed with `withObservationTracking` and
/// re-armed after every change.
///
/// `withObservationTracking` is one-shot: its `onChange` runs once, in the willSet of the next
/// change, and carries no value. This adapter turns it into a continuous observation without
/// losing an update:
///
/// - It re-arms inside `onChange`, *before* calling the handler, so the registration for the next
///   change exists before the mutation that triggered this one has even stored its value. A
///   write made by the handler, or right after the store, finds it armed. (Re-arming after the
///   handler, or later on another turn, leaves a window in which a change is missed: rules
///   REE-01 and DEL-01 catch that.)
/// - The handler receives the value being written, which ``value``'s setter makes available for
///   the duration of the write, while the object still holds the old one (willSet timing).
///
/// The tracked storage is ``current``; write through ``value``. Not thread-safe.
@Observable
public final class TrackedValue<Value>: ObservableValue, ObserverCounting {
  /// The tracked property. `withObservationTracking` observes reads of it.
  public private(set) var current: Value

  /// The values being written, innermost write last (a handler may write again).
  @ObservationIgnored private var writes: [Value] = []
  /// `withObservationTracking` registrations armed and not yet fired.
  @ObservationIgnored private var armed = 0

  /// Creates an object holding `initialValue`.
  public init(_ initialValue: Value) { current = initialValue }

  /// The current value. Setting it stores through the tracked property, which fires every armed
  /// registration in its willSet.
  public var value: Value {
    get { current }
    set {
      writes.append(newValue)
      current = newValue
      writes.removeLast()
    }
  }

  /// Arms a `withObservationTracking` registration for `handler`, re-armed after every change.
  ///
  /// The handler is not called with the current value.
  ///
  /// - Complexity: O(1) plus `withObservationTracking`'s registration.
  public func observe(_ handler: @escaping (Value) -> Void) -> TrackedValueToken<Value> {
    let registration = TrackedValueRegistration(handler: handler)
    arm(registration)
    return TrackedValueToken(registration)
  }

  /// Registrations the Observation framework still holds for this object.
  ///
  /// `withObservationTracking` offers no way to withdraw a registration, so a cancelled one
  /// stays armed (holding only an empty box) until the next change fires it.
  public var observerCount: Int { armed }

  private func arm(_ registration: TrackedValueRegistration<Value>) {
    armed += 1
    registration.arming &+= 1
    let arming = registration.arming
    withObservationTracking {
      _ = current
    } onChange: { [weak self] in
      self?.fire(registration, arming: arming)
    }
  }

  private func fire(_ registration: TrackedValueRegistration<Value>, arming: UInt) {
    // The framework withdraws a registration only after its `onChange` returns, so a write made
    // from the handler fires the same registration again. Only its first firing counts.
    guard registration.arming == arming, !registration.firedCurrentArming else { return }
    registration.firedCurrentArming = true
    armed -= 1
    guard let handler = registration.handler else { return }
    // Re-arm first: from here on, the next change, even one the handler makes, is seen.
    arm(registration)
    handler(writes[writes.count - 1])
  }
}

/// What a `withObservationTracking` registration of ``TrackedValue`` keeps: the handler, until
/// cancelled. The framework's `onChange` closure owns it, so it dies with the observed object.
final class TrackedValueRegistration<Value> {
  var handler: ((Value) -> Void)?
  /// Counts the armings; a firing carries the number of the arming it belongs to.
  var arming: UInt = 0 {
    didSet { firedCurrentArming = false }
  }
  /// Whether the current arming has fired.
  var firedCurrentArming = false
  init(handler: @escaping (Value) -> Void) { self.handler = handler }
}

/// Ends a ``TrackedValue`` observation: releases the handler and stops re-arming. Releasing the
/// token cancels too.
public final class TrackedValueToken<Value>: ObservationToken {
  private weak var registration: TrackedValueRegistration<Value>?

  init(_ registration: TrackedValueRegistration<Value>) { self.registration = registration }

  deinit { cancel() }

  /// Releases the handler at once; the armed registration fires once more, into an empty box.
  ///
  /// - Complexity: O(1).
  public func cancel() {
    registration?.handler = nil
  }
}
