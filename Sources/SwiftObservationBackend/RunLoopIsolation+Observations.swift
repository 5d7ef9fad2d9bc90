import Observation
import RunLoopExecution

extension RunLoopIsolation {
  /// Iterates `Observations { read() }` in this isolation, calling `deliver` with each element
  /// until it returns `false` or the task is cancelled.
  ///
  /// The emit closure captures the isolated `self`, so it inherits this isolation: `read` runs
  /// on the observing thread, never concurrently with that thread's writes.
  func iterate<Element: Sendable>(
    _ read: @escaping @Sendable () -> Element, deliver: (Element) -> Bool
  ) async {
    let changes = Observations { () -> Element in
      self.preconditionIsolated()
      return read()
    }
    for await element in changes {
      if !deliver(element) { break }
    }
  }
}
