import Foundation

/// Runs one cell in fresh processes and waits for them, each at most a hard time limit.
///
/// A cell's repetitions are spread over several processes: between two processes of the same
/// build the same cell can differ by more than half (memory layout, which core, what the other
/// core does), and only samples from several processes show that noise to `compare`.
struct CellRunner {
  let executable: URL
  let jemallocPath: String?
  let repetitions: (Int) -> Int
  let budget: Double
  let seed: UInt64
  let processes: Int

  enum Result {
    case finished(CellOutcome)
    case timedOut
    case failed(String)
  }

  /// How many processes, and repetitions in each, a cell of size `n` uses.
  func layout(_ n: Int) -> (processes: Int, repetitions: Int) {
    let count = max(1, min(processes, repetitions(n)))
    return (count, max(1, Int((Double(repetitions(n)) / Double(count)).rounded(.up))))
  }

  /// Repetitions a cell of size `n` runs in all, warm-ups included (none at
  /// ``CellExecution/largeSize`` or more).
  func totalRepetitions(_ n: Int) -> Int {
    let (count, perProcess) = layout(n)
    return count * (perProcess + (n >= CellExecution.largeSize ? 0 : 1))
  }

  /// Runs the cell's processes one after another. The budget holds for the whole cell: once it
  /// is spent, no further process starts, and a cell left with fewer than three repetitions
  /// (or fewer than it asked for, if that is less) is capped.
  func run(_ plan: CellPlan) -> Result {
    let (count, perProcess) = layout(plan.n)
    var merged = CellOutcome()
    let start = DispatchTime.now()
    for index in 0..<count {
      let spent = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
      if index > 0 && spent > budget {
        merged.capped = merged.nanosecondsPerOperation.count < min(3, count * perProcess)
        return .finished(merged)
      }
      switch runProcess(plan, repetitions: perProcess, budget: budget / Double(count)) {
      case .finished(let outcome):
        if outcome.problem != nil || outcome.capped { return .finished(outcome) }
        merged.nanosecondsPerOperation += outcome.nanosecondsPerOperation
        merged.allocationsPerOperation = outcome.allocationsPerOperation
        merged.bytesPerOperation = outcome.bytesPerOperation
        merged.retainedBytesPerObserver = outcome.retainedBytesPerObserver
        merged.memoryMeasured = outcome.memoryMeasured
        merged.wallSeconds += outcome.wallSeconds
        merged.secondsPerRepetition = max(merged.secondsPerRepetition, outcome.secondsPerRepetition)
      case let other:
        return other
      }
    }
    return .finished(merged)
  }

  private func runProcess(_ plan: CellPlan, repetitions: Int, budget: Double) -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = [
      "cell", "--backend", plan.backend, "--workload", plan.workload, "--pattern", plan.pattern,
      "--n", String(plan.n), "--depth", String(plan.depth), "--repetitions", String(repetitions),
      "--budget",
      String(budget), "--seed", String(seed),
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["LD_PRELOAD"] = nil
    if plan.allocator == .jemalloc, let jemallocPath { environment["LD_PRELOAD"] = jemallocPath }
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    let done = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in done.signal() }
    do {
      try process.run()
    } catch {
      return .failed("could not start a cell process: \(error.localizedDescription)")
    }
    // The parent's ends of both pipes are closed when this returns: a sweep starts thousands
    // of processes, and leaked descriptors past 1,024 crash Foundation's `Process.run`.
    defer {
      for pipe in [output, errors] {
        try? pipe.fileHandleForReading.close()
        try? pipe.fileHandleForWriting.close()
      }
    }
    // Read while the child runs so a full pipe cannot block it.
    let collected = Collected()
    let readers = DispatchGroup()
    DispatchQueue.global().async(group: readers) {
      collected.output = output.fileHandleForReading.readDataToEndOfFile()
    }
    DispatchQueue.global().async(group: readers) {
      collected.errors = errors.fileHandleForReading.readDataToEndOfFile()
    }
    // A repetition already running when the budget ends may finish; one that would take far
    // longer (an O(n^2) cancel at a million observers) is stopped here.
    let hardLimit = budget * 1.5 + 0.5
    if done.wait(timeout: .now() + hardLimit) == .timedOut {
      process.terminate()
      if done.wait(timeout: .now() + 2) == .timedOut {
        kill(process.processIdentifier, SIGKILL)
        done.wait()
      }
      readers.wait()
      return .timedOut
    }
    readers.wait()
    guard process.terminationStatus == 0 else {
      let message = String(decoding: collected.errors, as: UTF8.self).split(separator: "\n").prefix(
        3
      )
      .joined(separator: " / ")
      return .failed("cell process exited with status \(process.terminationStatus): \(message)")
    }
    do {
      return .finished(try JSONDecoder().decode(CellOutcome.self, from: collected.output))
    } catch {
      return .failed("cell process printed no outcome: \(error.localizedDescription)")
    }
  }
}

/// What a cell process printed; each field is written by one reader and read after both finish.
private final class Collected: @unchecked Sendable {
  var output = Data()
  var errors = Data()
}
