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
  /// The closures, in registration order; tombstones are ``_tombstone``.
  @exclusivity(unchecked) @usableFromInline internal var _handlers:
    ContiguousArray<(Value) -> Void> = []
  /// For each entry of `_handlers`, the slot that owns it (`_SlotMap.vacant` for a tombstone).
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
  public var observerCount: Int { _handlers.count - _tombstones }

  /// Registers `handler` for later writes and returns its token; with
  /// ``replaysCurrentValue``, calls it with the current value first.
  ///
  /// - Complexity: amortized O(1), plus the replay's deliveries.
  @inlinable
  public func observe(_ handler: @escaping (Value) -> Void) -> Token {
    let (slot, generation) = _slots.allocate(entry: UInt32(truncatingIfNeeded: _handlers.count))
    _handlers.append(handler)
    _owners.append(slot)
    let token = Token(slot: slot, generation: generation, owner: self)
    if replaysCurrentValue { _replay(to: handler) }
    return token
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
      _pending.append((newValue, _handlers.count))
      return
    }
    _isDelivering = true
    _broadcast(newValue, upTo: _handlers.count)
    if !_pending.isEmpty || _tombstones > 0 { _drain() } else { _isDelivering = false }
  }

  /// Calls entries `0..<end` with `value`. Entries appended meanwhile lie past `end`; a cancel
  /// meanwhile turns its entry into a tombstone in place, so indices hold for the whole walk.
  @inlinable
  internal func _broadcast(_ value: Value, upTo end: Int) {
    var index = 0
    while index < end {
      _handlers[index](value)
      index &+= 1
    }
  }

  /// Delivers the queued writes in order, then ends the delivery and compacts if worth it.
  @usableFromInline
  internal func _drain() {
    while let write = _pending.popFirst() { _broadcast(write.value, upTo: write.registered) }
    _isDelivering = false
    _compactIfWorthIt()
  }

  /// Cancels the observer in `slot` if `generation` is still its.
  ///
  /// - Complexity: O(1) amortized (a compaction every half-array of cancels).
  @usableFromInline
  internal func _cancel(slot: UInt32, generation: UInt32) {
    guard let entry = _slots.free(slot, generation: generation) else { return }
    let index = Int(entry)
    // The closure is released after the array access ends: releasing it can run a token's
    // deinit, which calls back in here.
    let released = _handlers[index]
    _handlers[index] = _tombstone
    _owners[index] = _SlotMap.vacant
    _tombstones += 1
    if !_isDelivering { _compactIfWorthIt() }
    _ = consume released
  }

  @usableFromInline
  internal func _compactIfWorthIt() {
    guard _tombstones > 0, _tombstones &* 2 >= _handlers.count else { return }
    var kept = 0
    for index in 0..<_handlers.count where _owners[index] != _SlotMap.vacant {
      if kept != index {
        _handlers.swapAt(kept, index)
        _owners[kept] = _owners[index]
        _slots.move(_owners[kept], to: UInt32(truncatingIfNeeded: kept))
      }
      kept &+= 1
    }
    _handlers.removeLast(_handlers.count - kept)
    _owners.removeLast(_owners.count - kept)
    _tombstones = 0
  }

  /// The closure a cancelled entry holds: it does nothing.
  @usableFromInline
  internal let _tombstone: (Value) -> Void = { _ in }
}
