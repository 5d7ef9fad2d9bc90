import CClosureCalls
import DequeModule
import ObservationCore

/// An observable value built to deliver at the cost of a loop over contiguous closures, with
/// O(1) cancellation and every ordering guarantee the catalogue names: Observatory's own
/// strategy.
///
/// - Observers live in one dense array of closures, in registration order; a write calls them
///   front to back (didSet timing). A cancelled observer's closure is replaced by a shared no-op
///   (a tombstone), so the delivery loop has no branch, and the array is compacted, in order,
///   once tombstones are half of it: O(1) amortized per cancel, never during delivery.
/// - A token names a slot of a slot map (slot, generation), which tells where its closure sits
///   in the dense array however compaction moves it; a freed slot's generation changes, so an
///   old token cannot cancel the slot's next owner.
/// - Writes made from inside a callback are queued and delivered in order by the outermost
///   write (trampolining): value order under reentrancy, unbounded depth, no stack growth.
///   Each queued write remembers how many observers were registered when it was made, so an
///   observer registered later never gets it.
/// - With `replaysCurrentValue`, `observe` calls the new handler with the current value before
///   it returns.
///
/// Not thread-safe: use it from one thread or serialize access yourself.
///
/// ```swift
/// let volume = DenseObservers(5)
/// let token = volume.observe { print($0) }   // prints nothing yet
/// volume.value = 7                           // prints "7"
/// token.cancel()
/// ```
public final class DenseObservers<Value>: ObservableValue, ObserverCounting {
  @exclusivity(unchecked) @usableFromInline internal var _value: Value
  /// The closures, in registration order, tombstones included. Delivery calls them
  /// from C without retaining a context (see ``_ClosureBuffer``).
  @usableFromInline internal let _handlers = _ClosureBuffer<Value>()
  /// Closures registered while a walk runs, to be appended when it ends; entry `i` of them
  /// is entry `_handlers.count + i` for the slot map.
  @exclusivity(unchecked) @usableFromInline internal var _arrivals:
    ContiguousArray<(Value) -> Void> = []
  /// Closures cancelled while a walk runs, owned, released when it ends: the walk may be
  /// running one.
  @exclusivity(unchecked) @usableFromInline internal var _retired:
    ContiguousArray<observatory_swift_closure> = []
  /// For each entry (of `_handlers`, then `_arrivals`), the slot that owns it
  /// (`_SlotMap.vacant` for a tombstone).
  @exclusivity(unchecked) @usableFromInline internal var _owners: ContiguousArray<UInt32> = []
  @exclusivity(unchecked) @usableFromInline internal var _slots = _SlotMap()
  @exclusivity(unchecked) @usableFromInline internal var _tombstones = 0
  @exclusivity(unchecked) @usableFromInline internal var _isDelivering = false
  /// Writes made during delivery, each with the number of entries registered when it was made.
  @exclusivity(unchecked) @usableFromInline internal var _pending:
    Deque<(value: Value, registered: Int)> = []
  /// Whether `observe` replays the current value.
  public let replaysCurrentValue: Bool

  /// Creates a subject holding `initialValue`, with no observers; with `replaysCurrentValue`,
  /// each new observer is called with the current value before `observe` returns.
  public init(_ initialValue: Value, replaysCurrentValue: Bool = false) {
    _value = initialValue
    self.replaysCurrentValue = replaysCurrentValue
  }

  /// The current value. Setting it stores the value, then calls every observer with it.
  ///
  /// - Complexity: O(*n*) for *n* observers.
  @inlinable
  public var value: Value {
    get { _value }
    set { _write(newValue) }
  }

  /// The number of live observers.
  public var observerCount: Int { _entryCount - _tombstones }

  /// Entries registered, tombstones included: those of the dense array and those waiting for
  /// a walk to end.
  @inlinable
  internal var _entryCount: Int { _handlers.count &+ _arrivals.count }

  /// Registers `handler` for later writes and returns its token; with
  /// ``replaysCurrentValue``, calls it with the current value first.
  ///
  /// - Complexity: amortized O(1), plus the replay's deliveries.
  @inlinable
  public func observe(_ handler: @escaping (Value) -> Void) -> Token {
    let handle = _register(handler)
    let token = Token(handle, owner: self)
    if replaysCurrentValue { _replay(to: handler) }
    return token
  }

  /// Registers `handler` for later writes until ``removeObserver(_:)`` is called with the
  /// returned handle; with ``replaysCurrentValue``, calls it with the current value first.
  ///
  /// The handle is a value, not an object: nothing is allocated for it, and dropping it does
  /// not end the observation (use ``observe(_:)`` for a token that does). The subject keeps
  /// `handler` until the handle is removed or the subject is gone.
  ///
  /// ```swift
  /// let volume = DenseObservers(5)
  /// let handle = volume.addObserver { print($0) }
  /// volume.value = 7                 // prints "7"
  /// volume.removeObserver(handle)
  /// ```
  ///
  /// - Complexity: amortized O(1), plus the replay's deliveries.
  @inlinable
  public func addObserver(_ handler: @escaping (Value) -> Void) -> Handle {
    let handle = _register(handler)
    if replaysCurrentValue { _replay(to: handler) }
    return handle
  }

  /// Ends the observation `handle` names and releases its handler. Removing a handle twice,
  /// or one this subject did not return, does nothing: a freed slot's generation has moved on.
  ///
  /// - Complexity: O(1) amortized (a compaction every half-array of cancels).
  @inlinable
  public func removeObserver(_ handle: Handle) {
    _cancel(slot: handle.slot, generation: handle.generation)
  }

  /// Places `handler` in the dense array (or, during a walk, among the arrivals) and gives it a
  /// slot.
  @inlinable
  internal func _register(_ handler: @escaping (Value) -> Void) -> Handle {
    let (slot, generation) = _slots.allocate(entry: UInt32(truncatingIfNeeded: _entryCount))
    if _handlers.isWalking {
      _arrivals.append(handler)
    } else {
      _handlers.append(handler)
    }
    _owners.append(slot)
    return Handle(slot: slot, generation: generation)
  }

  @usableFromInline
  internal func _replay(to handler: (Value) -> Void) {
    if _isDelivering {
      handler(_value)
      return
    }
    _isDelivering = true
    handler(_value)
    _drain()
  }

  @inlinable
  internal func _write(_ newValue: Value) {
    _value = newValue
    if _isDelivering {
      _pending.append((newValue, _entryCount))
      return
    }
    _isDelivering = true
    _broadcast(newValue, upTo: _handlers.count)
    if !_pending.isEmpty || _tombstones > 0 || !_retired.isEmpty {
      _drain()
    } else {
      _isDelivering = false
    }
  }

  /// Calls entries `0..<end` with `value`. Entries registered meanwhile wait in `_arrivals`;
  /// a cancel meanwhile turns its entry into a tombstone in place, and the walk, reading each
  /// entry when it reaches it, calls the tombstone.
  @inlinable
  internal func _broadcast(_ value: Value, upTo end: Int) {
    let base = _handlers.base
    _handlers.isWalking = true
    _ClosureBuffer<Value>.walk(base, upTo: end, with: value)
    _handlers.isWalking = false
    if !_arrivals.isEmpty { _admitArrivals() }
  }

  /// Appends the closures registered during the walk that just ended.
  @inlinable
  internal func _admitArrivals() {
    // Copied memory to memory: passed one by one to a specialized `append`, each closure
    // would come out wrapped in a thunk, and be called through it on every write after.
    _arrivals.withUnsafeBufferPointer { _handlers.append(copying: $0) }
    // Released after the copy, outside any access: the copies hold the contexts now.
    let arrivals = _arrivals
    _arrivals = []
    _ = consume arrivals
  }

  /// Delivers the queued writes in order, then ends the delivery, releases what was cancelled
  /// during it and compacts if worth it.
  @inlinable
  internal func _drain() {
    while let write = _pending.popFirst() { _broadcast(write.value, upTo: write.registered) }
    _isDelivering = false
    if !_retired.isEmpty {
      // Released outside any access: a released closure may hold a token whose deinit
      // cancels (or writes) in here.
      let retired = _retired
      _retired = []
      for closure in retired { _ClosureBuffer<Value>.release(closure) }
    }
    _compactIfWorthIt()
  }

  /// Cancels the observer in `slot` if `generation` is still its.
  ///
  /// - Complexity: O(1) amortized (a compaction every half-array of cancels).
  @inlinable
  internal func _cancel(slot: UInt32, generation: UInt32) {
    guard let entry = _slots.free(slot, generation: generation) else { return }
    let index = Int(entry)
    if index >= _handlers.count {
      // Registered during the walk under way: not reached by it, released below.
      let released = _arrivals.withUnsafeMutableBufferPointer {
        _ClosureBuffer<Value>.retire($0.baseAddress! + (index &- _handlers.count))
      }
      _markCancelled(index)
      _ClosureBuffer<Value>.release(released)
      return
    }
    let released = _handlers.retire(at: index)
    _markCancelled(index)
    if _handlers.isWalking {
      // The walk may be running this very closure: it is released when the walk ends.
      _retired.append(released)
    } else {
      // Released after every access ends: releasing it can run a token's deinit, which calls
      // back in here.
      _ClosureBuffer<Value>.release(released)
    }
  }

  /// Books entry `index` as a tombstone, and compacts if that made it worth it.
  @inlinable
  internal func _markCancelled(_ index: Int) {
    _owners[index] = _SlotMap.vacant
    _tombstones += 1
    if !_isDelivering { _compactIfWorthIt() }
  }

  @inlinable
  internal func _compactIfWorthIt() {
    guard _tombstones > 0, _tombstones &* 2 >= _handlers.count, _arrivals.isEmpty else { return }
    _handlers.compact(owners: &_owners, slots: &_slots)
    _tombstones = 0
  }
}
