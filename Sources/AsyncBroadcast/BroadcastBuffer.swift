import DequeModule

/// The state an ``AsyncBroadcast`` keeps under its lock: one buffer of the values some consumer
/// has yet to read, each with the number of consumers whose cursor is on it, and a record per
/// consumer.
///
/// A consumer's cursor is the sequence number of the next value it reads. Values are numbered
/// from 0 in the order they were sent; `start` is the number of the buffer's first value and
/// `end` the number the next value sent will get. A consumer whose cursor is `end` is caught up:
/// it is counted in `caughtUp`, and waits in `waiters` while it is suspended in `next()`. Every
/// other consumer is counted on the slot its cursor is on, so the front slot can go as soon as
/// its count is zero, without looking at any consumer. A cursor behind `start` (the values it
/// was on were dropped by ``AsyncBroadcast/BufferingPolicy/bufferingNewest(_:)``) reads from
/// `start`, where the drop counted it.
@usableFromInline
struct BroadcastBuffer<Element: Sendable>: ~Copyable {
  /// One value and the consumers whose cursor is on it.
  @usableFromInline
  struct Slot {
    @usableFromInline var element: Element
    @usableFromInline var readers: Int

    @inlinable
    init(element: Element, readers: Int) {
      self.element = element
      self.readers = readers
    }
  }

  /// One consumer: where it reads next, and where it waits in `waiters` (`nil` when it does
  /// not), or whether it has ended.
  @usableFromInline
  struct Consumer {
    @usableFromInline var cursor: Int
    @usableFromInline var waiterIndex: Int?
    @usableFromInline var ended: Bool

    @inlinable
    init(cursor: Int, waiterIndex: Int?, ended: Bool) {
      self.cursor = cursor
      self.waiterIndex = waiterIndex
      self.ended = ended
    }
  }

  /// A suspended consumer: its slot in `consumers` and what resumes it.
  @usableFromInline
  struct Waiter {
    @usableFromInline var consumer: Int
    @usableFromInline var continuation: UnsafeContinuation<Element?, Never>

    @inlinable
    init(consumer: Int, continuation: UnsafeContinuation<Element?, Never>) {
      self.consumer = consumer
      self.continuation = continuation
    }
  }

  /// What ``take(_:)`` found for a consumer.
  @usableFromInline
  enum Taken {
    case element(Element)
    case finished
    case empty
  }

  @usableFromInline var slots = Deque<Slot>()
  @usableFromInline var start = 0
  @usableFromInline var caughtUp = 0
  @usableFromInline var consumers: [Consumer] = []
  @usableFromInline var freeConsumers: [Int] = []
  @usableFromInline var waiters: [Waiter] = []
  @usableFromInline var finished = false
  @usableFromInline let limit: Int?

  @inlinable
  init(limit: Int?) { self.limit = limit }

  @inlinable
  var end: Int { start + slots.count }

  /// The number of values buffered: those a consumer has yet to read.
  @inlinable
  var count: Int { slots.count }

  /// The number of consumers that have not ended.
  @inlinable
  var consumerCount: Int { consumers.count - freeConsumers.count - endedCount }
  @usableFromInline var endedCount = 0

  /// Registers a consumer that reads from the next value sent; returns its slot.
  ///
  /// - Complexity: O(1) amortized.
  @inlinable
  mutating func addConsumer() -> Int {
    let consumer = Consumer(cursor: end, waiterIndex: nil, ended: false)
    caughtUp += 1
    if let reused = freeConsumers.popLast() {
      consumers[reused] = consumer
      return reused
    }
    consumers.append(consumer)
    return consumers.count - 1
  }

  /// Appends `element` for every consumer: hands it to each waiting consumer's continuation
  /// (resumed here, under the lock: a resumption only schedules the consumer's task) and keeps
  /// it for the others. Returns `false` after ``finish()``, having done nothing.
  ///
  /// - Complexity: O(*w*) for *w* waiting consumers; O(1) amortized otherwise.
  @inlinable
  mutating func send(_ element: Element) -> Bool {
    guard !finished else { return false }
    let behind = caughtUp - waiters.count
    if behind > 0 || !slots.isEmpty {
      // The caught-up consumers that are not waiting read it later; so, if the buffer is not
      // empty, its value keeps its number even with no reader, until the front is trimmed.
      slots.append(Slot(element: element, readers: behind))
    } else {
      start += 1
    }
    caughtUp = waiters.count
    let newEnd = end
    for waiter in waiters {
      consumers[waiter.consumer].cursor = newEnd
      consumers[waiter.consumer].waiterIndex = nil
      waiter.continuation.resume(returning: element)
    }
    waiters.removeAll(keepingCapacity: true)
    trimFront()
    if let limit {
      while slots.count > limit { dropFront() }
    }
    return true
  }

  /// Ends the broadcast: every waiting consumer gets `nil`; the others read what is buffered,
  /// then `nil`.
  ///
  /// - Complexity: O(*w*) for *w* waiting consumers.
  @inlinable
  mutating func finish() {
    guard !finished else { return }
    finished = true
    for waiter in waiters {
      consumers[waiter.consumer].waiterIndex = nil
      waiter.continuation.resume(returning: nil)
    }
    waiters.removeAll()
  }

  /// The next value for `consumer`, if one is buffered, advancing its cursor; `.finished` once
  /// it has ended or the broadcast has finished and it has read everything.
  ///
  /// - Complexity: O(1) amortized.
  @inlinable
  mutating func take(_ consumer: Int) -> Taken {
    let record = consumers[consumer]
    if record.ended { return .finished }
    let cursor = max(record.cursor, start)
    guard cursor < end else { return finished ? .finished : .empty }
    let index = cursor - start
    let element = slots[index].element
    slots[index].readers -= 1
    if index + 1 < slots.count { slots[index + 1].readers += 1 } else { caughtUp += 1 }
    consumers[consumer].cursor = cursor + 1
    trimFront()
    return .element(element)
  }

  /// Suspends `consumer` on `continuation` if it has nothing to read; otherwise returns what it
  /// reads, for the caller to resume with.
  ///
  /// - Complexity: O(1) amortized.
  @inlinable
  mutating func wait(
    _ consumer: Int, on continuation: UnsafeContinuation<Element?, Never>
  ) -> Taken {
    let taken = take(consumer)
    guard case .empty = taken else { return taken }
    consumers[consumer].waiterIndex = waiters.count
    waiters.append(Waiter(consumer: consumer, continuation: continuation))
    return .empty
  }

  /// Ends `consumer`: it no longer holds any value in the buffer, and its next read gives
  /// `nil`. Returns its continuation if it was waiting, for the caller to resume with `nil`.
  ///
  /// - Complexity: O(1) amortized: a swap in `waiters`, and the front slots it alone held.
  @inlinable
  mutating func close(_ consumer: Int) -> UnsafeContinuation<Element?, Never>? {
    let record = consumers[consumer]
    guard !record.ended else { return nil }
    consumers[consumer].ended = true
    endedCount += 1
    var continuation: UnsafeContinuation<Element?, Never>?
    if let index = record.waiterIndex {
      continuation = waiters[index].continuation
      let last = waiters.removeLast()
      if index < waiters.count {
        waiters[index] = last
        consumers[last.consumer].waiterIndex = index
      }
      consumers[consumer].waiterIndex = nil
    }
    let cursor = max(record.cursor, start)
    if cursor < end { slots[cursor - start].readers -= 1 } else { caughtUp -= 1 }
    trimFront()
    return continuation
  }

  /// Frees `consumer`'s record, once it has ended, for a later consumer to reuse.
  ///
  /// - Complexity: O(1) amortized.
  @inlinable
  mutating func remove(_ consumer: Int) {
    _ = close(consumer)
    endedCount -= 1
    freeConsumers.append(consumer)
  }

  /// Drops the front slots no consumer's cursor is on.
  @inlinable
  mutating func trimFront() {
    while let first = slots.first, first.readers == 0 {
      slots.removeFirst()
      start += 1
    }
  }

  /// Drops the front slot, moving the consumers on it to the next value.
  @inlinable
  mutating func dropFront() {
    let readers = slots.removeFirst().readers
    start += 1
    if slots.isEmpty { caughtUp += readers } else { slots[0].readers += readers }
  }
}
