import ObservationCore

/// Observers in an array of slots, with the slots that cancelled tokens freed reused by later
/// registrations: cancelling is O(1) and the array never holds more slots than the most
/// observers ever registered at once.
///
/// Observers are called in slot order, which after a reuse is not registration order. A write
/// from inside a callback is delivered after the current one, to the observers registered when
/// it was made.
public final class SlotArrayObservers<Value>: ObservableValue {
  /// Frees its slot when cancelled or deinitialized.
  public final class Token: ObservationToken {
    weak var owner: SlotArrayObservers?
    let slot: Int
    let registration: Int

    init(owner: SlotArrayObservers, slot: Int, registration: Int) {
      (self.owner, self.slot, self.registration) = (owner, slot, registration)
    }

    deinit { cancel() }

    /// Frees the slot at once: the observer is not called again, even by a delivery under way.
    public func cancel() { owner?.free(slot, registration: registration) }
  }

  private var slots: [(registration: Int, handler: (Value) -> Void)?] = []
  private var freeSlots: [Int] = []
  private var registrations = 0
  private var pending: [(value: Value, registrations: Int)] = []
  private var isDelivering = false

  /// A subject holding `value`, with no observers.
  public init(_ value: Value) { self.value = value }

  /// The current value; setting it calls every observer with the new value.
  ///
  /// - Complexity: O(*s*) for *s* slots.
  public var value: Value {
    didSet {
      pending.append((value, registrations))
      guard !isDelivering else { return }
      isDelivering = true
      while !pending.isEmpty {
        let (next, registered) = pending.removeFirst()
        var index = 0
        while index < slots.count {
          // A slot reused after this write was made holds an observer that must not see it.
          if let (registration, handler) = slots[index], registration <= registered {
            handler(next)
          }
          index += 1
        }
      }
      isDelivering = false
    }
  }

  /// Registers `handler` in a free slot, or a new one.
  ///
  /// - Complexity: O(1) amortized.
  public func observe(_ handler: @escaping (Value) -> Void) -> Token {
    registrations += 1
    let entry = (registrations, handler)
    let slot: Int
    if let free = freeSlots.popLast() {
      slot = free
      slots[slot] = entry
    } else {
      slot = slots.count
      slots.append(entry)
    }
    return Token(owner: self, slot: slot, registration: registrations)
  }

  private func free(_ slot: Int, registration: Int) {
    guard slot < slots.count, slots[slot]?.registration == registration else { return }
    // The closure is released after the array access: releasing it can run another token's
    // deinit, which must not find the array busy.
    let released = slots[slot]
    slots[slot] = nil
    freeSlots.append(slot)
    withExtendedLifetime(released) {}
  }
}

/// The slot-array backend, as the conformance suite and the harness see it.
public struct SlotArrayBackend: ObservationBackend {
  /// A backend with no state.
  public init() {}

  /// `slot-array`.
  public var name: String { "slot-array" }

  /// Synchronous after the store, every value, cancellation at once and on deinit; observer
  /// order is not kept once a slot is reused.
  public var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .deliversEveryValue, .synchronousDelivery, .preservesValueOrderUnderReentrancy,
        .immediateCancellation, .cancelsOnTokenDeinit,
      ],
      maxReentrancyDepth: .unbounded)
  }

  /// A subject holding `initialValue`, with no observers.
  public func makeSubject(initialValue: Int) -> SlotArrayObservers<Int> {
    SlotArrayObservers(initialValue)
  }
}
