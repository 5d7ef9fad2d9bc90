import Foundation

/// A conformance child's heartbeat: a thread that writes `progress` to the stream after every
/// ``interval`` in which the unit running made progress (``RuleProgress``), so that the runner
/// can tell a slow rule from a stuck one.
enum ProgressHeartbeat {
  /// Seconds between two looks at the progress: one.
  static let interval = 1.0

  /// Starts the heartbeat thread, which runs until the process ends.
  static func start(writingTo stream: StreamOutput) {
    let thread = Thread {
      var seen = RuleProgress.sample.steps
      while true {
        Thread.sleep(forTimeInterval: interval)
        let (steps, waiting) = RuleProgress.sample
        if steps != seen || waiting { stream.write(.progress) }
        seen = steps
      }
    }
    thread.name = "conformance-progress"
    thread.start()
  }
}
