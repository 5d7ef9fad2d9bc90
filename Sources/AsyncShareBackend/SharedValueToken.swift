import ObservationCore

/// Ends a `share()` observer by cancelling its task, as an app's `deinit` or `onDisappear`
/// does; `share()` then removes the task's side. Releasing the token ends it too.
public final class SharedValueToken: ObservationToken {
  private var task: Task<Void, Never>?
  private let progress: DeliveryProgress

  init(_ task: Task<Void, Never>, progress: DeliveryProgress) {
    self.task = task
    self.progress = progress
  }

  deinit { cancel() }

  /// Waits until `share()`'s task has handed on what it can without the observing thread, then
  /// cancels the observer's task; a second call does nothing.
  ///
  /// - Complexity: O(*n*) in the subject's *n* observers: `share()` removes the side under its
  ///   lock and trims its buffer by every side's position.
  public func cancel() {
    guard let task else { return }
    // Whether share()'s task has handed its side a value yet must not depend on which thread
    // runs first.
    progress.awaitHandOff()
    // The task waits in `next()`, so its cancellation handler removes its side from the share
    // now, or, if a value was handed to it, as soon as its next step asks for another.
    task.cancel()
    self.task = nil
    progress.observerCancelled()
  }
}
