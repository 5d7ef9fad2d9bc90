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
    var measurement = Measurement(probe: probe)
    observers.withUnsafeBufferPointer { buffer in
      measurement.start()
      for value in 1...writes { observatory_notify_all(buffer.baseAddress, n, Int64(value)) }
    }
    var sample = measurement.stop(operations: n * writes)
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
    var measurement = Measurement(probe: probe)
    measurement.start()
    for value in 1...writes {
      for observer in observers { observer(value) }
    }
    var sample = measurement.stop(operations: n * writes)
    sample.problem = Drivers.check(
      sink, deliveries: n * writes, sum: n * (writes * (writes + 1) / 2))
    return sample
  }
}
