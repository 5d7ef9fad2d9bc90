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

  /// The least a generic backend does to keep a handler: what `cLoopCallingSwiftHandlers`
  /// receives its handlers through, so that they arrive as a backend's `observe` gets them.
  final class HandlerList<Value> {
    var closures: ContiguousArray<(Value) -> Void> = []

    func observe(_ handler: @escaping (Value) -> Void) { closures.append(handler) }
  }
}
