import ObservationCore
import SlotArrayBackend

/// `slot-array` as a later commit might have made it: the same observers, with a few dozen
/// instructions of extra work on every delivery. It stands for a regression in the history that
/// CI keeps across runs (`.ci/run` measures it under the name `slot-array` after two runs of the
/// real one, and `compare` must call it a regression); nobody would adopt it.
public final class SlowedSlotArrayObservers: ObservableValue {
  @usableFromInline let base: SlotArrayObservers<Int>

  /// A subject holding `value`, with no observers.
  @inlinable
  public init(_ value: Int) { base = SlotArrayObservers(value) }

  /// The current value; setting it calls every observer with the new value.
  ///
  /// - Complexity: O(*s*) for *s* slots.
  @inlinable
  public var value: Int {
    get { base.value }
    set { base.value = newValue }
  }

  /// Registers `handler`, which first does the extra work on every delivery.
  ///
  /// - Complexity: O(1) amortized.
  @inlinable
  public func observe(_ handler: @escaping (Int) -> Void) -> SlotArrayObservers<Int>.Token {
    base.observe { value in
      slowdownWork()
      handler(value)
    }
  }
}

/// Rounds of xorshift the optimizer cannot fold or skip: a chain of dependent steps on state it
/// must keep.
@inline(never)
public func slowdownWork() {
  var state = slowdownState
  for _ in 0..<8 {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
  }
  slowdownState = state
}

/// The state the extra work updates; each cell's process is single-threaded where it delivers.
nonisolated(unsafe) var slowdownState: UInt64 = 0x9E37_79B9_7F4A_7C15

/// The slowed backend, measured under `slot-array`'s name so that its cells continue that
/// backend's history.
public struct SlowedSlotArrayBackend: ObservationBackend, Sendable {
  /// A backend with no state.
  public init() {}

  /// `slot-array`: the cells of the backend it stands in for.
  public var name: String { "slot-array" }

  /// `slot-array`'s declaration.
  public var capabilities: BackendCapabilities { SlotArrayBackend().capabilities }

  /// A subject holding `initialValue`, with no observers.
  @inlinable
  public func makeSubject(initialValue: Int) -> SlowedSlotArrayObservers {
    SlowedSlotArrayObservers(initialValue)
  }
}
