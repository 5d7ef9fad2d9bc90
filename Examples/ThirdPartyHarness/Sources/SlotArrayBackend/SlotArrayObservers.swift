import ObservationCore

/// Observers in an array of slots, with the slots that cancelled tokens freed reused by later
/// registrations: cancelling is O(1) and the array never holds more slots than the most
/// observers ever registered at once.
///
/// Observers are called in slot order, which after a reuse is not registration order. A write
/// from inside a callback is delivered after the current one, to the observers registered when
/// it was made.
///
/// The hot paths are `@inlinable` over `@usableFromInline` storage, so that an app's module, or
/// the harness's, compiles them for `Int` instead of calling generic code that reads `Value`'s
/// layout at run time for every slot.
public final class SlotArrayObservers<Value>: ObservableValue {
  /// Frees its slot when cancelled or deinitialized.
  public final class Token: ObservationToken {
    @usableFromInline weak var owner: SlotArrayObservers?
    @usableFromInline let slot: Int
    @usableFromInline let registration: Int

    @inlinable
    init(owner: SlotArrayObservers, slot: Int, registration: Int) {
      (self.owner, self.slot, self.registration) = (owner, slot, registration)
    }

    deinit { cancel() }

    /// Frees the slot at once: the observer is not called again, even by a delivery under way.
    @inlinable
    public func cancel() { owner?._free(slot, registration: registration) }
  }

  @usableFromInline var _value: Value
  @usableFromInline var _slots: [(registration: Int, handler: (Value) -> Void)?] = []
  @usableFromInline var _freeSlots: [Int] = []
  @usableFromInline var _registrations = 0
  @usableFromInline var _pending: [(value: Value, registrations: Int)] = []
  @usableFromInline var _isDelivering = false

  /// A subject holding `value`, with no observers.
  @inlinable
  public init(_ value: Value) { _value = value }

  /// The current value; setting it calls every observer with the new value.
  ///
  /// - Complexity: O(*s*) for *s* slots.
  @inlinable
  public var value: Value {
    get { _value }
    set {
      _value = newValue
      _deliver(newValue)
    }
  }

  @inlinable
  func _deliver(_ value: Value) {
    _pending.append((value, _registrations))
    guard !_isDelivering else { return }
    _isDelivering = true
    while !_pending.isEmpty {
      let (next, registered) = _pending.removeFirst()
      var index = 0
      while index < _slots.count {
        // A slot reused after this write was made holds an observer that must not see it.
        if let (registration, handler) = _slots[index], registration <= registered {
          handler(next)
        }
        index += 1
      }
    }
    _isDelivering = false
  }

  /// Registers `handler` in a free slot, or a new one.
  ///
  /// - Complexity: O(1) amortized.
  @inlinable
  public func observe(_ handler: @escaping (Value) -> Void) -> Token {
    _registrations += 1
    let entry = (_registrations, handler)
    let slot: Int
    if let free = _freeSlots.popLast() {
      slot = free
      _slots[slot] = entry
    } else {
      slot = _slots.count
      _slots.append(entry)
    }
    return Token(owner: self, slot: slot, registration: _registrations)
  }

  @inlinable
  func _free(_ slot: Int, registration: Int) {
    guard slot < _slots.count, _slots[slot]?.registration == registration else { return }
    // The closure is released after the array access: releasing it can run another token's
    // deinit, which must not find the array busy.
    let released = _slots[slot]
    _slots[slot] = nil
    _freeSlots.append(slot)
    withExtendedLifetime(released) {}
  }
}

/// The slot-array backend, as the conformance suite and the harness see it.
public struct SlotArrayBackend: ObservationBackend, Sendable {
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
  @inlinable
  public func makeSubject(initialValue: Int) -> SlotArrayObservers<Int> {
    SlotArrayObservers(initialValue)
  }
}
