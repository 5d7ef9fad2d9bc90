import Synchronization

/// The temporary directories the harness has made and not yet removed: callgrind's scratch
/// copy of the executable, and the pipes of paired runs.
///
/// The harness installs no signal handler. A tool that stops on a signal removes what
/// ``current`` lists before it exits, so that an interrupted run leaves nothing behind.
package enum ScratchDirectories {
  private static let directories = Mutex(Set<String>())

  /// Remembers a directory to remove, with its contents, if the process is stopped.
  ///
  /// - Complexity: O(1) amortized.
  package static func remember(_ directory: String) {
    directories.withLock { _ = $0.insert(directory) }
  }

  /// Forgets a directory that is gone.
  ///
  /// - Complexity: O(1) amortized.
  package static func forget(_ directory: String) {
    directories.withLock { _ = $0.remove(directory) }
  }

  /// The directories made and not yet removed.
  ///
  /// - Complexity: O(*d*) for *d* directories.
  package static var current: Set<String> { directories.withLock { $0 } }
}
