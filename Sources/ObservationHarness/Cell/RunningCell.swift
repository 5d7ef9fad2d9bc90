import Foundation
import ObservationWorkloads

/// A cell process that has started: wait for it with `finish()`.
package struct RunningCell {
  let process: Process
  let countsFile: URL?
  /// A repetition already running when the budget ends may finish; one that would take far
  /// longer (an O(n^2) cancel at a million observers) is stopped at this moment.
  let deadline: DispatchTime
  /// The jemalloc the process was started with, if any: its outcome must say it ran on it.
  let preloadedJemalloc: String?
  let output = Pipe()
  let errors = Pipe()
  let done = DispatchSemaphore(value: 0)
  let readers = DispatchGroup()
  let collected = Collected()

  /// The parent's ends of both pipes: a sweep starts thousands of processes, and leaked
  /// descriptors past 1,024 crash Foundation's `Process.run`.
  func closePipes() {
    for pipe in [output, errors] {
      try? pipe.fileHandleForReading.close()
      try? pipe.fileHandleForWriting.close()
    }
  }

  /// Waits for the process (stopping it at its deadline) and reads its outcome.
  func finish() -> CellRunner.Result {
    defer { closePipes() }
    if done.wait(timeout: deadline) == .timedOut {
      process.terminate()
      if done.wait(timeout: .now() + 2) == .timedOut {
        kill(process.processIdentifier, SIGKILL)
        done.wait()
      }
      readers.wait()
      return .timedOut
    }
    readers.wait()
    let refused =
      process.terminationReason == .exit
      && process.terminationStatus == CellChild.incompatibleExitStatus
    guard process.terminationStatus == 0 else {
      let message = String(decoding: collected.errors, as: UTF8.self).split(separator: "\n")
        .prefix(3).joined(separator: " / ")
      let how =
        process.terminationReason == .uncaughtSignal
        ? "was killed by signal \(process.terminationStatus)"
        : "exited with status \(process.terminationStatus)"
      if refused { return .incompatible("the cell process refused the request: \(message)") }
      return .failed("cell process \(how): \(message)")
    }
    var outcome: CellOutcome
    do {
      outcome = try CellChild.outcome(ofReply: collected.output)
    } catch {
      return .failed("cell process printed no outcome: \(error.localizedDescription)")
    }
    if let preloadedJemalloc, outcome.problem == nil, !outcome.memoryMeasured {
      return .failed(
        "jemalloc did not load in the cell process (LD_PRELOAD=\(preloadedJemalloc)); the row"
          + " would be labelled jemalloc without it")
    }
    if let countsFile, outcome.problem == nil, !outcome.capped {
      guard let operations = outcome.measuredOperations, operations > 0 else {
        return .failed("the cell process reported no operations to divide its count by")
      }
      do {
        let counts = try InstructionCounter.read(countsFile)
        let perOperation = { (count: Double) in count / Double(operations) }
        outcome.instructionsPerOperation = [perOperation(counts.instructions)]
        outcome.d1MissesPerOperation = counts.d1Misses.map { [perOperation($0)] } ?? []
        outcome.llMissesPerOperation = counts.llMisses.map { [perOperation($0)] } ?? []
      } catch {
        return .failed("callgrind's counts could not be read: \(error)")
      }
    }
    return .finished(outcome)
  }
}
