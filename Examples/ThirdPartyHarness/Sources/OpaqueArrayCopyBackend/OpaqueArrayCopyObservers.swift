import DequeModule
import ObservationCore

/// An observable value whose observers live in one contiguous array, so a write walks
/// contiguous memory.
///
/// - Registration appends an entry in amortized O(1). It does **not** call the handler with the
///   current value (no replay): an observer sees only writes made after it registered.
/// - A write stores the value first and then calls every observer (didSet timing), in
///   registration order.
/// - Cancelling finds the entry by binary search over the registration numbers, which the array
///   keeps sorted, and removes it: O(log *n*) to find plus an O(*n*) shift of the entries after
///   it. Cancelling during delivery only clears the entry (a tombstone) and the array is
///   compacted in one O(*n*) pass when delivery ends, so indices never move under a traversal.
/// - Writes made from inside a callback are queued and delivered in order by the outermost write
///   (trampolining), as in `LinkedListBackend`'s observers.
///
/// Not thread-safe: use it from one thread or serialize access yourself.
///
/// ```swift
/// let volume = OpaqueArrayCopyObservers(5)
/// let token = volume.observe { print($0) }   // prints nothing yet
/// volume.value = 7                           // prints "7"
/// token.cancel()
/// ```
public final class OpaqueArrayCopyObservers<Value>: ObservableValue, ObserverCounting {
  internal var _value: Value
  internal var _entries: ContiguousArray<_Entry> = []
  internal var _nextID: UInt64 = 0
  internal var _sequence: UInt64 = 0
  internal var _isDelivering = false
  internal var _tombstones = 0
  internal var _pending: Deque<(sequence: UInt64, value: Value)> = []

  /// Creates a subject holding `initialValue`, with no observers.
  public init(_ initialValue: Value) {
    _value = initialValue
  }

  /// The current value. Setting it stores the value, then calls every observer with it.
  ///
  /// - Complexity: O(*n*) for *n* observers.
  public var value: Value {
    get { _value }
    set { _write(newValue) }
  }

  /// The number of live observers.
  public var observerCount: Int { _entries.count - _tombstones }

  /// Registers `handler` for later writes and returns its token. The handler is not called now.
  ///
  /// - Complexity: amortized O(1).
  public func observe(_ handler: @escaping (Value) -> Void) -> Token {
    let id = _nextID
    _nextID &+= 1
    _entries.append(_Entry(id: id, startSequence: _sequence, handler: handler))
    return Token(id: id, owner: self)
  }

  internal func _write(_ newValue: Value) {
    _value = newValue
    _sequence &+= 1
    if _isDelivering {
      _pending.append((_sequence, newValue))
      return
    }
    _isDelivering = true
    _broadcast(newValue, sequence: _sequence)
    while let write = _pending.popFirst() {
      _broadcast(write.value, sequence: write.sequence)
    }
    _isDelivering = false
    if _tombstones > 0 { _compact() }
  }

  internal func _broadcast(_ value: Value, sequence: UInt64) {
    // Entries appended during delivery are numbered after `sequence` and skipped; removals during
    // delivery are tombstones, so indices are stable for the whole walk.
    let end = _entries.count
    var index = 0
    while index < end {
      let entry = _entries[index]
      if entry.startSequence < sequence, let handler = entry.handler {
        handler(value)
      }
      index += 1
    }
  }

  /// Removes the observer registered as `id`, if it is still registered.
  ///
  /// - Complexity: O(log *n*) to find it, O(*n*) to close the gap.
  internal func _remove(id: UInt64) {
    guard let index = _index(of: id), _entries[index].handler != nil else { return }
    // Handlers are released after the array access ends: releasing one can run a token's deinit,
    // which calls back into this method.
    if _isDelivering {
      let released = _entries[index].handler.take()
      _tombstones += 1
      _ = consume released
    } else {
      let removed = _entries.remove(at: index)
      _ = consume removed
    }
  }

  /// Binary search: entries are appended in increasing `id` order and compaction keeps that order.
  internal func _index(of id: UInt64) -> Int? {
    var low = 0
    var high = _entries.count
    while low < high {
      let middle = (low + high) / 2
      let candidate = _entries[middle].id
      if candidate == id { return middle }
      if candidate < id { low = middle + 1 } else { high = middle }
    }
    return nil
  }

  internal func _compact() {
    _entries.removeAll { $0.handler == nil }
    _tombstones = 0
  }
}
