import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Threads started before a timed region, held at a gate until ``release()`` opens it inside
/// the region, and joined (``join()``) before the region ends: creating threads is not what a
/// contended workload measures.
///
/// The threads wait at the gate spinning with `sched_yield`, so that opening it wakes nobody:
/// they start just before the clock, and on a machine with fewer cores than threads the yield
/// hands the core to whoever has work.
///
/// ```swift
/// let workers = WorkerThreads(count: 4) { index in work(index) }
/// region.start()
/// workers.release()
/// workers.join()
/// let sample = region.stop(operations: operations)
/// ```
public final class WorkerThreads: Sendable {
  /// The gate and the count of threads waiting at it, shared with every thread.
  private final class Gate: Sendable {
    let isOpen = Atomic<Bool>(false)
    let waiting = Atomic<Int>(0)
  }

  /// What one thread runs, handed to it through `pthread_create`'s context pointer.
  private final class Start: Sendable {
    let gate: Gate
    let index: Int
    let body: @Sendable (Int) -> Void

    init(gate: Gate, index: Int, body: @escaping @Sendable (Int) -> Void) {
      self.gate = gate
      self.index = index
      self.body = body
    }
  }

  private let gate = Gate()
  private let handles: [pthread_t]

  /// Starts `count` threads that wait at the gate, then each run `body` with its index, from
  /// 0; returns once every one of them is waiting.
  ///
  /// - Precondition: every thread can be started.
  /// - Complexity: O(*count*) thread creations.
  public init(count: Int, body: @escaping @Sendable (Int) -> Void) {
    var handles: [pthread_t] = []
    handles.reserveCapacity(count)
    for index in 0..<count {
      let start = Unmanaged.passRetained(Start(gate: gate, index: index, body: body))
      var handle = pthread_t()
      let status = pthread_create(
        &handle, nil,
        { context in
          let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
          start.gate.waiting.wrappingAdd(1, ordering: .releasing)
          while !start.gate.isOpen.load(ordering: .acquiring) { sched_yield() }
          start.body(start.index)
          return nil
        }, start.toOpaque())
      precondition(status == 0, "a worker thread could not be started (error \(status))")
      handles.append(handle)
    }
    self.handles = handles
    while gate.waiting.load(ordering: .acquiring) < count { sched_yield() }
  }

  /// Opens the gate: every thread starts its work.
  ///
  /// - Complexity: O(1).
  public func release() { gate.isOpen.store(true, ordering: .releasing) }

  /// Waits until every thread has finished its work. Call it once, after ``release()``.
  ///
  /// - Complexity: O(*count*).
  public func join() {
    for handle in handles { pthread_join(handle, nil) }
  }
}
