import CClosureCalls
import CReference

/// The reference rows measured in the same run as the backends: what notification costs with
/// nothing in the way.
public enum ReferenceDrivers {
  /// The physical limit: C calling `n` function pointers over contiguous memory.
  public static func cFunctionPointers(n: Int, probe: MemoryProbe) -> Sample {
    let accumulator = UnsafeMutablePointer<Int64>.allocate(capacity: 1)
    accumulator.initialize(to: 0)
    defer { accumulator.deallocate() }
    let observers = (0..<n).map { _ in
      observatory_observer(
        function: observatory_accumulate, context: UnsafeMutableRawPointer(accumulator))
    }
    let writes = Drivers.writes(for: n)
    var timedRegion = TimedRegion(probe: probe)
    observers.withUnsafeBufferPointer { buffer in
      timedRegion.start()
      for value in 1...writes { observatory_notify_all(buffer.baseAddress, n, Int64(value)) }
    }
    var sample = timedRegion.stop(operations: n * writes)
    let expected = Int64(n) * Int64(writes * (writes + 1) / 2)
    if accumulator.pointee != expected {
      sample.problem = "expected a sum of \(expected), observed \(accumulator.pointee)"
    }
    return sample
  }

  /// The idiomatic floor: a plain Swift array of closures, called in a loop.
  public static func swiftClosureArray(n: Int, probe: MemoryProbe) -> Sample {
    let sink = WorkloadSink()
    let observers: [(Int) -> Void] = (0..<n).map { _ in { sink.receive($0) } }
    let writes = Drivers.writes(for: n)
    var timedRegion = TimedRegion(probe: probe)
    timedRegion.start()
    for value in 1...writes {
      for observer in observers { observer(value) }
    }
    var sample = timedRegion.stop(operations: n * writes)
    sample.problem = Drivers.check(
      sink, deliveries: n * writes, sum: n * (writes * (writes + 1) / 2))
    return sample
  }

  /// The handler every backend gets (`{ sink.receive($0) }`, passed to a generic `observe` as
  /// the drivers pass it, and kept as a generic backend keeps a `(Value) -> Void`), called from
  /// a C loop that neither retains nor releases it: the floor for calling that very handler.
  /// `reference-c`'s handler is one add in C; this one is the Swift closure, with the thunk
  /// that adapts it to a generic closure's calling convention.
  public static func cLoopCallingSwiftHandlers(n: Int, probe: MemoryProbe) -> Sample {
    let sink = WorkloadSink()
    let handlers = HandlerList<Int>()
    for _ in 0..<n { handlers.observe { sink.receive($0) } }
    let writes = Drivers.writes(for: n)
    var timedRegion = TimedRegion(probe: probe)
    handlers.closures.withUnsafeBufferPointer { buffer in
      UnsafeRawPointer(buffer.baseAddress!).withMemoryRebound(
        to: observatory_swift_closure.self, capacity: n
      ) { closures in
        timedRegion.start()
        for value in 1...writes {
          withUnsafePointer(to: value) { observatory_call_each(closures, n, $0) }
        }
      }
    }
    var sample = timedRegion.stop(operations: n * writes)
    sample.problem = Drivers.check(
      sink, deliveries: n * writes, sum: n * (writes * (writes + 1) / 2))
    return sample
  }

  /// The floor for subscribing: appending the handler every backend gets (passed to a generic
  /// `observe`, as the drivers pass it) to a Swift array whose capacity was reserved, `n` per
  /// array, in as many arrays as `subscribe` makes subjects. What it retains per observer is
  /// the handler's context.
  public static func swiftClosureAppend(n: Int, probe: MemoryProbe) -> Sample {
    let batch = Drivers.batch(for: n)
    let sink = WorkloadSink()
    let lists = (0..<batch).map { _ in
      let list = HandlerList<Int>()
      list.closures.reserveCapacity(n)
      return list
    }
    var timedRegion = TimedRegion(probe: probe)
    let liveBefore = timedRegion.liveBytes()
    timedRegion.start()
    for list in lists {
      for _ in 0..<n { list.observe { sink.receive($0) } }
    }
    var sample = timedRegion.stop(operations: n * batch)
    if let liveBefore, let liveAfter = timedRegion.liveBytes() {
      sample.retainedBytesPerObserver =
        Double(Int64(liveAfter) - Int64(liveBefore)) / Double(n * batch)
    }
    for list in lists {
      for handler in list.closures { handler(1) }
    }
    sample.problem = Drivers.check(sink, deliveries: n * batch, sum: n * batch)
    return sample
  }

  /// The physical limit of subscribing: `n` observers placed in each of as many C slot maps
  /// as `subscribe` makes subjects (``Drivers/batch(for:scale:)``), each with the one
  /// allocation a Swift observer cannot avoid, its context (of a Swift closure context's
  /// size). The maps' arrays are allocated before the timed region, as a reserved array's
  /// are; what the region retains per observer is the context.
  ///
  /// - Complexity: O(1) per subscription.
  public static func cSlotMapSubscribe(n: Int, probe: MemoryProbe) -> Sample {
    let maps = SlotMaps(count: Drivers.batch(for: n), capacity: n)
    defer { maps.destroy() }
    guard maps.ready else { return Sample(nanoseconds: 0, operations: 0, problem: maps.failure) }
    var timedRegion = TimedRegion(probe: probe)
    let liveBefore = timedRegion.liveBytes()
    timedRegion.start()
    let subscribed = maps.subscribeEvery()
    var sample = timedRegion.stop(operations: maps.observers)
    if let liveBefore, let liveAfter = timedRegion.liveBytes() {
      sample.retainedBytesPerObserver =
        Double(Int64(liveAfter) - Int64(liveBefore)) / Double(maps.observers)
    }
    sample.problem = maps.check(subscribed: subscribed, expected: maps.observers)
    return sample
  }

  /// The physical limit of cancelling: `n` observers subscribed to each of as many C slot maps
  /// as `cancel` makes subjects, then cancelled in the order `cancel` uses for `pattern` and
  /// `seed` (``Drivers/cancellationOrder(n:pattern:seed:)``): each cancellation finds its
  /// slot from the handle, frees the context and keeps the array dense.
  ///
  /// - Complexity: O(1) per cancellation.
  public static func cSlotMapCancel(
    n: Int, pattern: WorkloadPattern, seed: UInt64, probe: MemoryProbe
  ) -> Sample {
    let maps = SlotMaps(count: Drivers.batch(for: n), capacity: n)
    defer { maps.destroy() }
    guard maps.ready else { return Sample(nanoseconds: 0, operations: 0, problem: maps.failure) }
    let subscribed = maps.subscribeEvery()
    guard subscribed == maps.observers else {
      return Sample(
        nanoseconds: 0, operations: 0,
        problem: maps.check(subscribed: subscribed, expected: maps.observers))
    }
    let order = Drivers.cancellationOrder(n: n, pattern: pattern, seed: seed).map(UInt32.init)
    var timedRegion = TimedRegion(probe: probe)
    order.withUnsafeBufferPointer { order in
      timedRegion.start()
      for index in 0..<maps.maps.count {
        observatory_slot_map_cancel(maps.map(index), maps.handles(of: index), order.baseAddress, n)
      }
    }
    var sample = timedRegion.stop(operations: maps.observers)
    sample.problem = maps.check(subscribed: 0, expected: 0, after: "every observer was cancelled")
    return sample
  }

  /// C slot maps for the limit rows of subscribe and cancel, and the counter their observers
  /// add to: allocated with the C library, so that no Swift access check or reference count
  /// sits in the timed loop.
  struct SlotMaps {
    let maps: UnsafeMutableBufferPointer<observatory_slot_map>
    let accumulator: UnsafeMutablePointer<Int64>
    /// Each map's observers' handles, `capacity` per map, map after map.
    let allHandles: UnsafeMutableBufferPointer<UInt32>
    /// The observers each map holds once full.
    let capacity: Int
    let ready: Bool

    /// `count` maps of `capacity` observers each, their arrays and the handles' array
    /// allocated.
    init(count: Int, capacity: Int) {
      maps = .allocate(capacity: count)
      accumulator = .allocate(capacity: 1)
      accumulator.initialize(to: 0)
      allHandles = .allocate(capacity: count * capacity)
      self.capacity = capacity
      var ready = true
      for index in 0..<count {
        maps.baseAddress!.advanced(by: index).initialize(to: observatory_slot_map())
        ready = observatory_slot_map_init(maps.baseAddress! + index, capacity) && ready
      }
      self.ready = ready
    }

    var failure: String { "the C slot maps' arrays could not be allocated" }

    /// The observers of every map, once full.
    var observers: Int { maps.count * capacity }

    func map(_ index: Int) -> UnsafeMutablePointer<observatory_slot_map> {
      maps.baseAddress! + index
    }

    /// Where map `index`'s observers' handles are.
    func handles(of index: Int) -> UnsafeMutablePointer<UInt32> {
      allHandles.baseAddress! + index * capacity
    }

    /// Subscribes `capacity` observers to every map, each adding to the accumulator; returns
    /// how many were placed.
    ///
    /// - Complexity: O(1) per subscription.
    func subscribeEvery() -> Int {
      var subscribed = 0
      for index in 0..<maps.count {
        subscribed += observatory_slot_map_subscribe(
          map(index), capacity, observatory_accumulate_through, accumulator, handles(of: index))
      }
      return subscribed
    }

    /// Whether every map holds what it should: `subscribed` of the `expected` subscriptions
    /// made, as many live observers, and a write of 1 reaching each of them once.
    func check(subscribed: Int, expected: Int, after: String? = nil) -> String? {
      guard subscribed == expected else {
        return "subscribed \(subscribed) of \(expected) observers: a slot map was full or"
          + " memory ran out"
      }
      let live = maps.reduce(0) { $0 + $1.count }
      guard live == expected else {
        return "expected \(expected) live observers\(after.map { " after " + $0 } ?? ""),"
          + " the maps hold \(live)"
      }
      accumulator.pointee = 0
      for index in 0..<maps.count { observatory_slot_map_notify(map(index), 1) }
      guard accumulator.pointee == Int64(expected) else {
        return "a write of 1 to every map summed to \(accumulator.pointee), expected \(expected)"
      }
      return nil
    }

    func destroy() {
      for index in 0..<maps.count { observatory_slot_map_destroy(map(index)) }
      maps.deallocate()
      accumulator.deallocate()
      allHandles.deallocate()
    }
  }

  /// The least a generic backend does to keep a handler: what `cLoopCallingSwiftHandlers`
  /// receives its handlers through, so that they arrive as a backend's `observe` gets them.
  final class HandlerList<Value> {
    var closures: ContiguousArray<(Value) -> Void> = []

    func observe(_ handler: @escaping (Value) -> Void) { closures.append(handler) }
  }
}
