import ObservationCore

/// Ends an `AsyncStream` observer: removes and finishes its continuation and cancels its task,
/// as an app's `deinit` or `onDisappear` does. Releasing the token ends it too.
public final class StreamedValueToken: ObservationToken {
  private var end: (() -> Void)?

  init(end: @escaping () -> Void) { self.end = end }

  deinit { cancel() }

  /// Finishes the observer's stream and cancels its task; a second call does nothing.
  ///
  /// - Complexity: O(1).
  public func cancel() {
    end?()
    end = nil
  }
}
