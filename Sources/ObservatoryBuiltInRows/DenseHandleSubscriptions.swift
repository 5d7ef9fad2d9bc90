import DenseBackend
import ObservationHarness
import ObservationWorkloads

/// `dense`'s subjects observed through ``DenseObservers/addObserver(_:)`` and
/// ``DenseObservers/removeObserver(_:)``: a handle that is a value (a slot and a generation),
/// with no token object to allocate, free or reach through a weak reference.
///
/// The contract cannot carry such a handle (`ObservationToken` is a class protocol, since the
/// suite's memory rules watch a token's release), so the row it makes is measured by the
/// harness alone; the suite runs on the same handles through a token-shaped view in the
/// package's tests. Generic over the value type, so that a handler reaches `addObserver` in
/// the representation it keeps, with no reabstraction thunk (``SubscriptionScheme``).
struct DenseHandleSubscriptions<Value>: SubscriptionScheme, Sendable {
  /// `subject.addObserver(handler)`.
  ///
  /// - Complexity: amortized O(1).
  @inlinable
  @inline(__always)
  func subscribe(
    _ subject: DenseObservers<Value>, _ handler: @escaping (Value) -> Void
  ) -> DenseObservers<Value>.Handle {
    subject.addObserver(handler)
  }

  /// `subject.removeObserver(handle)`.
  ///
  /// - Complexity: O(1) amortized.
  @inlinable
  @inline(__always)
  func cancel(_ handle: DenseObservers<Value>.Handle, of subject: DenseObservers<Value>) {
    subject.removeObserver(handle)
  }
}

extension MeasuredBackend {
  /// `dense-handles`: ``DenseStrategy``'s subjects subscribed and cancelled through handles,
  /// beside `dense`, which uses the contract's tokens; the difference is what the token costs.
  package static var denseHandles: MeasuredBackend {
    let dense = DenseStrategy()
    return MeasuredBackend(
      dense, subscribingThrough: DenseHandleSubscriptions<Int>(), named: "dense-handles",
      capabilities: dense.handleCapabilities)
  }
}
