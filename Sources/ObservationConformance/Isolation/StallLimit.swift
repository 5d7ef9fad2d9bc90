import Dispatch

/// How long the unit an isolated run's child is running may go without progress before it is
/// taken for hung: the runner's ``IsolatedConformanceRunner/stallTimeout``, or
/// ``gapFactor`` times the longest gap between two signs of progress the unit has shown so
/// far, whichever is longer.
///
/// A unit shows progress when it starts and with each `progress` line (one a second at most
/// while it makes steps, ``RuleProgress``). A backend that keeps making progress, however
/// slowly, shows gaps of about a second; one whose single operation takes seconds (a scan of
/// 10,000 observers on a loaded machine) has shown such a gap before, and is given that many
/// times longer; one that deadlocks or spins shows no more progress and is killed when the
/// limit has passed since its last sign: the stall timeout, or a few times the longest gap it
/// showed while it still worked.
struct StallLimit {
  /// How many times its longest gap so far a unit may go without progress: three.
  static let gapFactor = 3.0

  /// The least limit: the runner's stall timeout.
  let floor: Double
  /// The longest gap, in seconds, between two signs of progress of this unit.
  private(set) var longestGap = 0.0
  /// When the unit last showed progress (or started).
  private(set) var lastProgress: DispatchTime

  /// A limit for a unit that starts at `start`.
  init(floor: Double, start: DispatchTime = .now()) {
    self.floor = floor
    lastProgress = start
  }

  /// Seconds the unit may go without progress, in whole seconds (so that the outcome reads
  /// `timed out after 10 s`, not after a fraction of a heartbeat more).
  var seconds: Double {
    max(floor, (Self.gapFactor * longestGap).rounded(.up))
  }

  /// When the unit will be taken for hung unless it shows progress before.
  var deadline: DispatchTime {
    lastProgress + seconds
  }

  /// Records a sign of progress at `now`.
  mutating func progressed(at now: DispatchTime = .now()) {
    guard now > lastProgress else { return }
    longestGap = max(
      longestGap, Double(now.uptimeNanoseconds - lastProgress.uptimeNanoseconds) / 1e9)
    lastProgress = now
  }
}
