import RunLoopExecution

/// The asynchronous floor, `reference-async-tasks`: the least a task per observer can cost on
/// the executor the asynchronous backends deliver on.
///
/// Each observer is a task started with `Task.immediate(executorPreference:)` on the calling
/// thread's `RunLoopExecutor` (as `async-stream`, `swift-observations` and
/// `actor-observable` start theirs), that suspends on an `UnsafeContinuation` and does nothing
/// else: no stream, no actor hop, no buffer. A write resumes every waiting task with the
/// value; each runs as a job of that executor, records the value and suspends again. The
/// drivers wait with `RunLoopExecutor.spin(untilIdleOr:timeout:)`, as those backends'
/// `awaitDelivery` does.
extension ReferenceDrivers {
  /// `notify` on the asynchronous floor: ``Drivers/writes(for:scale:)`` writes, each resuming
  /// the `n` waiting tasks and timed until the last has run (its latency, as an asynchronous
  /// backend's `notify` has one per write); cost per resumption. Like every driver's, its
  /// work shrinks with `scale`, which the harness lowers for a slow cell.
  ///
  /// - Complexity: O(*n*) per write: one resumption and one job per task.
  public static func asyncTasksNotify(
    n: Int, probe: MemoryProbe, scale: WorkScale = .full
  ) -> Sample {
    asyncTasksNotify(n: n, probe: probe, scale: scale, recording: ExactlyOnce.self)
  }

  /// `subscribe` on the asynchronous floor: `n` tasks in each of ``Drivers/batch(for:scale:)``
  /// groups (as `subscribe` makes subjects), each started and run to its suspension on its
  /// continuation; cost per task started, with the bytes each keeps while it waits.
  ///
  /// - Complexity: O(1) per task.
  public static func asyncTasksSubscribe(
    n: Int, probe: MemoryProbe, scale: WorkScale = .full
  ) -> Sample {
    asyncTasksSubscribe(n: n, probe: probe, scale: scale, recording: ExactlyOnce.self)
  }

  /// `cancel` on the asynchronous floor: `n` waiting tasks in each of
  /// ``Drivers/batch(for:scale:)`` groups, each ended in the order `cancel` uses for `pattern`
  /// and `seed` (``Drivers/cancellationOrder(n:pattern:seed:)``) by resuming it with the end
  /// marker, `nil`; cost per task ended.
  ///
  /// A task is resumed, not cancelled: a task suspended on an `UnsafeContinuation` does not
  /// see `Task.cancel()` unless it waits inside a cancellation handler, which would add to every
  /// observer's cost. As an asynchronous backend's cancel does, the region ends once each task
  /// has been told; each runs its end as a job later, outside the region, and the check waits
  /// for every one.
  ///
  /// - Complexity: O(1) per task.
  public static func asyncTasksCancel(
    n: Int, pattern: WorkloadPattern, seed: UInt64, probe: MemoryProbe, scale: WorkScale = .full
  ) -> Sample {
    asyncTasksCancel(
      n: n, pattern: pattern, seed: seed, probe: probe, scale: scale, recording: ExactlyOnce.self)
  }

  /// ``asyncTasksNotify(n:probe:scale:)``, each resumption recorded by `Recording`.
  ///
  /// - Complexity: O(*n*) per write.
  package static func asyncTasksNotify<Recording: ResumptionRecording>(
    n: Int, probe: MemoryProbe, scale: WorkScale = .full, recording: Recording.Type
  ) -> Sample {
    let tasks = WaitingTasks<Recording>(count: n)
    tasks.startEvery()
    if let problem = tasks.checkEveryWaits() {
      return Sample(nanoseconds: 0, operations: 0, problem: problem + tasks.endEvery())
    }
    let writes = Drivers.writes(for: n, scale: scale)
    var latencies = [UInt64](repeating: 0, count: writes)
    var timedRegion = TimedRegion(probe: probe)
    timedRegion.start()
    for value in 1...writes {
      let start = Stopwatch.now()
      tasks.resumeEvery(with: value)
      tasks.awaitDeliveries(n * value)
      latencies[value - 1] = Stopwatch.now() &- start
    }
    var sample = timedRegion.stop(operations: n * writes)
    sample.latencies = latencies
    sample.problem = tasks.check(
      resumptions: writes, sumPerTask: writes * (writes + 1) / 2, lastValue: writes)
    let ending = tasks.endEvery()
    if !ending.isEmpty { sample.problem = (sample.problem ?? "") + ending }
    return sample
  }

  /// ``asyncTasksSubscribe(n:probe:scale:)``, each resumption recorded by `Recording`.
  ///
  /// - Complexity: O(1) per task.
  package static func asyncTasksSubscribe<Recording: ResumptionRecording>(
    n: Int, probe: MemoryProbe, scale: WorkScale = .full, recording: Recording.Type
  ) -> Sample {
    let count = n * Drivers.batch(for: n, scale: scale)
    let tasks = WaitingTasks<Recording>(count: count)
    var timedRegion = TimedRegion(probe: probe)
    let liveBefore = timedRegion.liveBytes()
    timedRegion.start()
    tasks.startEvery()
    var sample = timedRegion.stop(operations: count)
    if let liveBefore, let liveAfter = timedRegion.liveBytes() {
      sample.retainedBytesPerObserver =
        Double(Int64(liveAfter) - Int64(liveBefore)) / Double(count)
    }
    sample.problem = tasks.checkEveryWaits()
    if sample.problem == nil {
      // Every task started waits on its continuation: a write of 1 reaches each once.
      tasks.resumeEvery(with: 1)
      tasks.awaitDeliveries(count)
      sample.problem = tasks.check(resumptions: 1, sumPerTask: 1, lastValue: 1)
    }
    let ending = tasks.endEvery()
    if !ending.isEmpty { sample.problem = (sample.problem ?? "") + ending }
    return sample
  }

  /// ``asyncTasksCancel(n:pattern:seed:probe:scale:)``, each resumption recorded by `Recording`.
  ///
  /// - Complexity: O(1) per task.
  package static func asyncTasksCancel<Recording: ResumptionRecording>(
    n: Int, pattern: WorkloadPattern, seed: UInt64, probe: MemoryProbe,
    scale: WorkScale = .full, recording: Recording.Type
  ) -> Sample {
    let batch = Drivers.batch(for: n, scale: scale)
    let tasks = WaitingTasks<Recording>(count: n * batch)
    tasks.startEvery()
    if let problem = tasks.checkEveryWaits() {
      return Sample(nanoseconds: 0, operations: 0, problem: problem + tasks.endEvery())
    }
    let order = Drivers.cancellationOrder(n: n, pattern: pattern, seed: seed)
    var timedRegion = TimedRegion(probe: probe)
    timedRegion.start()
    for group in 0..<batch {
      let first = group * n
      for index in order { tasks.resume(first + index, with: nil) }
    }
    var sample = timedRegion.stop(operations: n * batch)
    let ending = tasks.endEvery()
    if !ending.isEmpty {
      sample.problem = "after every task was ended" + ending
    } else if tasks.tally.deliveries != 0 {
      sample.problem =
        "after every task was ended: expected no value, observed \(tasks.tally.deliveries)"
    }
    return sample
  }

  /// What the default recording does: each resumption of each task is recorded once.
  package enum ExactlyOnce: ResumptionRecording {
    /// Records `value` once for `task`.
    @inline(__always)
    package static func record(_ value: Int, task: Int, in tally: ResumptionTally) {
      tally.record(value, task: task)
    }
  }
}

/// How a waiting task of the asynchronous floor records a value it was resumed with: the seam
/// through which a test plants a lost or doubled resumption, to see the self-check fail.
package protocol ResumptionRecording: Sendable {
  /// Records that `task` was resumed with `value`.
  static func record(_ value: Int, task: Int, in tally: ResumptionTally)
}

/// What the asynchronous floor's tasks were resumed with: every resumption, their sum, and the
/// value each task last had.
///
/// Its tasks all run on one thread, the one that resumes them and runs its executor, so it
/// needs no lock.
package final class ResumptionTally: @unchecked Sendable {
  /// Resumptions recorded.
  @exclusivity(unchecked) package var deliveries = 0
  /// Sum of every value recorded.
  @exclusivity(unchecked) package var sum = 0
  /// The value each task last recorded, 0 before its first.
  @exclusivity(unchecked) package var lastValues: [Int]

  /// A tally of `tasks` tasks.
  package init(tasks: Int) { lastValues = Array(repeating: 0, count: tasks) }

  /// Records that `task` was resumed with `value`.
  @inline(__always)
  package func record(_ value: Int, task: Int) {
    deliveries &+= 1
    sum &+= value
    lastValues[task] = value
  }
}

/// The asynchronous floor's tasks, each waiting on its continuation on the calling thread's
/// `RunLoopExecutor`; resumed with a value, a task records it through `Recording` and waits
/// again; resumed with `nil`, it ends.
///
/// Everything here runs on the thread that made it, which is the thread whose executor runs
/// the tasks: that is what makes it `Sendable`.
package final class WaitingTasks<Recording: ResumptionRecording>: @unchecked Sendable {
  /// Each task's continuation while it waits; `nil` while it is resumed, or once it ended.
  @exclusivity(unchecked) var continuations: [UnsafeContinuation<Int?, Never>?]
  /// What the tasks were resumed with.
  package let tally: ResumptionTally
  /// How many times a task began to wait.
  @exclusivity(unchecked) var waits = 0
  /// How many tasks ended.
  @exclusivity(unchecked) var ended = 0
  /// The executor of the calling thread, which the tasks prefer.
  let executor = RunLoopExecutor.current

  /// `count` tasks, not started.
  init(count: Int) {
    continuations = Array(repeating: nil, count: count)
    tally = ResumptionTally(tasks: count)
  }

  /// Starts every task; each runs here, at once, to its first suspension.
  ///
  /// - Complexity: O(*n*) for *n* tasks.
  func startEvery() {
    for index in continuations.indices {
      Task.immediate(executorPreference: executor) { await self.wait(index) }
    }
    // A task that did not reach its continuation here gets there when the executor runs it.
    if waits < continuations.count {
      _ = RunLoopExecutor.spin(
        untilIdleOr: { self.waits >= self.continuations.count }, timeout: .seconds(10))
    }
  }

  /// Task `index`'s life: it waits, records each value it is resumed with, and ends on `nil`.
  private func wait(_ index: Int) async {
    while let value = await withUnsafeContinuation({
      (continuation: UnsafeContinuation<Int?, Never>) in
      continuations[index] = continuation
      waits &+= 1
    }) {
      Recording.record(value, task: index, in: tally)
    }
    ended &+= 1
  }

  /// Resumes task `index` with `value` if it waits.
  ///
  /// - Complexity: O(1); the task runs when the executor next runs its jobs.
  @inline(__always)
  func resume(_ index: Int, with value: Int?) {
    guard let continuation = continuations[index] else { return }
    continuations[index] = nil
    continuation.resume(returning: value)
  }

  /// Resumes every waiting task with `value`.
  ///
  /// - Complexity: O(*n*) for *n* tasks.
  @inline(__always)
  func resumeEvery(with value: Int?) {
    for index in continuations.indices { resume(index, with: value) }
  }

  /// Runs the executor until the tally has `deliveries`, for as long as tasks keep running:
  /// once its queue is empty nothing more arrives (a lost resumption), and the check says so.
  @inline(__always)
  func awaitDeliveries(_ deliveries: Int) {
    var seen = tally.deliveries
    while !RunLoopExecutor.spin(
      untilIdleOr: { self.tally.deliveries >= deliveries }, timeout: .seconds(10))
    {
      let now = tally.deliveries
      guard now > seen else { return }
      seen = now
    }
  }

  /// `nil` if every task waits on its continuation; otherwise what is wrong.
  func checkEveryWaits() -> String? {
    let waiting = continuations.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
    guard waiting == continuations.count else {
      return "\(waiting) of \(continuations.count) tasks wait on their continuation"
    }
    return nil
  }

  /// `nil` if each task was resumed `resumptions` times with values summing to `sumPerTask`,
  /// the last `lastValue`; otherwise what is wrong.
  ///
  /// - Complexity: O(*n*) for *n* tasks.
  func check(resumptions: Int, sumPerTask: Int, lastValue: Int) -> String? {
    let count = continuations.count
    let deliveries = count * resumptions
    let sum = count * sumPerTask
    let stale = tally.lastValues.reduce(0) { $0 + ($1 == lastValue ? 0 : 1) }
    if tally.deliveries == deliveries && tally.sum == sum && stale == 0 { return nil }
    return "expected \(deliveries) resumptions summing to \(sum), each task's last value"
      + " \(lastValue); observed \(tally.deliveries) summing to \(tally.sum), \(stale) tasks"
      + " with another last value"
  }

  /// Ends every task (resumes each that waits with `nil`) and runs the executor until each has
  /// ended; returns `""` if every task ended, or what is wrong, to append to a problem.
  ///
  /// - Complexity: O(*n*) for *n* tasks.
  func endEvery() -> String {
    // A task that was resumed and has not run yet waits again once it has: it is ended on the
    // next pass. No task beginning to wait or ending in a pass means none will.
    var progress = -1
    while ended < continuations.count && ended &+ waits != progress {
      progress = ended &+ waits
      resumeEvery(with: nil)
      _ = RunLoopExecutor.spin(
        untilIdleOr: { self.ended >= self.continuations.count }, timeout: .seconds(10))
    }
    guard ended == continuations.count else {
      return "; \(continuations.count - ended) of \(continuations.count) tasks did not end"
    }
    return ""
  }
}
