import ObservationCore

/// A backend's token as a rule holds it: cancelling or releasing it is a step of the rule
/// (``RuleProgress``), before and after the backend's own work.
///
/// A backend whose cancel scans its observers makes no other step while a rule releases
/// thousands of tokens (SCALE-01 releases 10,000 at once), and an isolated run must not take
/// that for a hang.
final class ProgressToken: ObservationToken {
  /// The backend's token; `nil` once released.
  private var base: AnyObservationToken?
  /// What a cancel or the release tells the rule's bookkeeping: the observation ended.
  private let onEnd: (() -> Void)?

  init(_ base: AnyObservationToken, onEnd: (() -> Void)? = nil) {
    self.base = base
    self.onEnd = onEnd
  }

  func cancel() {
    RuleProgress.step()
    base?.cancel()
    onEnd?()
    RuleProgress.step()
  }

  deinit {
    onEnd?()
    RuleProgress.step()
    // Released here rather than after `deinit`, so that the backend's own release (a cancel,
    // for most) is followed by a step too.
    base = nil
    RuleProgress.step()
  }
}
