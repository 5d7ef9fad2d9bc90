/// The isolation an observing thread's tasks run in: its run loop, through its
/// ``RunLoopExecutor``.
///
/// Each asynchronous backend adds, in an extension in its own module (so that the loop is
/// specialized where it is measured), the loop its observers iterate in this isolation.
package actor RunLoopIsolation {
  private nonisolated let executor: RunLoopExecutor

  /// The isolation of the calling thread.
  package init() { executor = .current }

  /// The calling thread's run loop executor.
  package nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }
}
