import DequeModule
import ObservationCore

/// An observable value whose observers live in a doubly linked list: a backport of Combine's
/// `@Published` for code that cannot use Combine.
///
/// - Registration appends a node and calls the handler at once with the current value
///   (replay, like `@Published`'s publisher).
/// - A write stores the value first and then calls every observer (didSet timing), in
///   registration order.
/// - Each registration returns a ``Token``; cancelling it, or releasing it, unlinks the node in
///   O(1) and releases the handler.
/// - Delivery survives observers that cancel themselves or others, subscribe, or write while a
///   value is being delivered. A write made from inside a callback is queued and delivered by the
///   outermost write once the current value has reached everyone (trampolining), so observers
///   always see values in the order they were written, the last value always wins, and nested
///   writes never grow the stack.
///
/// Not thread-safe: use it from one thread or serialize access yourself.
///
/// ```swift
/// let title = LinkedListObservers("Intro")
/// let token = title.observe { print($0) }   // prints "Intro"
/// title.value = "Chapter 1"                 // prints "Chapter 1"
/// token.cancel()
/// ```
public final class LinkedListObservers<Value>: ObservableValue, ObserverCounting {
  @usableFromInline internal var _value: Value
  @usableFromInline internal var _head: _Node?
  /// The last node. `unowned(unsafe)`: the forward chain from `_head` owns every linked node,
  /// so this back-pointer needs no retain and release of its own; `_remove` moves it before it
  /// unlinks the node it points at.
  @usableFromInline internal unowned(unsafe) var _tail: _Node?
  @usableFromInline internal var _count: Int = 0
  /// The number of the latest write; a node only receives writes numbered after its creation.
  @usableFromInline internal var _sequence: UInt64 = 0
  @usableFromInline internal var _isDelivering = false
  /// Writes made while delivering, in order, waiting for the outermost delivery loop.
  @usableFromInline internal var _pending: Deque<(sequence: UInt64, value: Value)> = []
  /// Nodes unlinked during delivery: they keep their `next` link until delivery ends so that a
  /// traversal standing on them can continue.
  @usableFromInline internal var _detachedDuringDelivery: [_Node] = []

  /// Creates a subject holding `initialValue`, with no observers.
  public init(_ initialValue: Value) {
    _value = initialValue
  }

  deinit {
    // Unlink iteratively: releasing a long chain recursively would overflow the stack, and
    // every handler must be released even if tokens are still held.
    // Handlers are released outside the property accesses: releasing one can run a token's
    // deinit, which touches its node again.
    var node = _head.take()
    while let current = node {
      node = current.next.take()
      current.isLinked = false
      let released = current.handler.take()
      _ = consume released
    }
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
  public var observerCount: Int { _count }

  /// Registers `handler`, calls it once with the current value, and returns its token.
  ///
  /// - Complexity: O(1) plus the replay callback.
  @inlinable
  public func observe(_ handler: @escaping (Value) -> Void) -> Token {
    let node = _Node(handler: handler, startSequence: _sequence)
    _append(node)
    let token = Token(node: node, owner: self)
    if _isDelivering {
      handler(_value)
    } else {
      _isDelivering = true
      handler(_value)
      _drainPending()
      _endDelivery()
    }
    return token
  }

  @inlinable
  internal func _write(_ newValue: Value) {
    _value = newValue
    _sequence &+= 1
    if _isDelivering {
      _pending.append((_sequence, newValue))
      return
    }
    _isDelivering = true
    _broadcast(newValue, sequence: _sequence)
    _drainPending()
    _endDelivery()
  }

  @inlinable
  internal func _broadcast(_ value: Value, sequence: UInt64) {
    var node = _head
    while let current = node {
      if current.startSequence < sequence, let handler = current.handler {
        #if OBSERVATORY_SLOWDOWN_EXPERIMENT
        _slowdownExperimentWork()
        #endif
        handler(value)
      }
      node = current.next
    }
  }

  @inlinable
  internal func _drainPending() {
    while let write = _pending.popFirst() {
      _broadcast(write.value, sequence: write.sequence)
    }
  }

  @inlinable
  internal func _endDelivery() {
    _isDelivering = false
    if !_detachedDuringDelivery.isEmpty { _releaseDetached() }
  }

  @usableFromInline
  internal func _releaseDetached() {
    for node in _detachedDuringDelivery { node.next = nil }
    _detachedDuringDelivery.removeAll()
  }

  @inlinable
  internal func _append(_ node: _Node) {
    if let tail = _tail {
      tail.next = node
      node.previous = tail
    } else {
      _head = node
    }
    _tail = node
    _count += 1
  }

  /// Unlinks `node` in O(1) and releases its handler.
  @inlinable
  internal func _remove(_ node: _Node) {
    guard node.isLinked else { return }
    node.isLinked = false
    // Released at the end of this call, not inside the access: releasing a handler can run
    // arbitrary deinits, including other tokens' cancels.
    let released = node.handler.take()
    defer { _ = consume released }
    let previous = node.previous
    let next = node.next
    if let previous { previous.next = next } else { _head = next }
    if let next { next.previous = previous } else { _tail = previous }
    node.previous = nil
    if _isDelivering {
      _detachedDuringDelivery.append(node)
    } else {
      node.next = nil
    }
    _count -= 1
  }
}
