import ObservationCore

/// Ends an `Observations` observer: releases the handler at once and cancels the iterating task.
/// Releasing the token cancels too.
public final class ObservedValueToken: ObservationToken {
  private let release: () -> Void
  private let task: Task<Void, Never>

  init<Value>(registration: ObservedValueRegistration<Value>, task: Task<Void, Never>) {
    self.release = { registration.handler = nil }
    self.task = task
  }

  deinit { cancel() }

  /// Releases the handler and cancels the task; an element already being delivered is not.
  ///
  /// - Complexity: O(1).
  public func cancel() {
    release()
    task.cancel()
  }
}
