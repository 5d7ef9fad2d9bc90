import Foundation
import ObservationHarness
import Synchronization

/// What the tool does on SIGINT, SIGTERM or SIGHUP: stop the helper processes it started (git
/// and swift build for `ab`, the child processes of `conformance`), remove the temporary files and directories it made, say so, and
/// exit with 128 + the signal's number. The cell processes
/// running then die with the tool: each asks the kernel for SIGKILL when its parent ends
/// (`cell --parent`), which also covers a SIGKILL of the tool that no handler sees.
///
/// The signal handler only writes the signal's number to a pipe; a thread of its own reads it
/// and does the rest, outside the handler, where taking a lock and allocating are allowed.
package enum Interruption {
  private struct State {
    var paths: Set<String> = []
    /// Helper processes (git, swift build, conformance children), each with the signal that
    /// stops it.
    var children: [pid_t: Int32] = [:]
    /// What the message that the tool was stopped starts with.
    var toolName = "observatory"
  }

  private static let state = Mutex(State())
  /// Held while files are being put in place, so that a signal waits for them.
  private static let commitLock = Mutex(())
  /// The pipe's end the signal handler writes to: an atomic, which a handler may load.
  private static let pipeWriteEnd = Atomic<Int32>(-1)

  /// Installs the handlers; call once, at the start of `main`. The message that the tool was
  /// stopped starts with `toolName`.
  package static func install(toolName: String) {
    state.withLock { $0.toolName = toolName }
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return }
    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
    pipeWriteEnd.store(ends[1], ordering: .releasing)
    let readEnd = ends[0]
    let thread = Thread {
      var byte: UInt8 = 0
      while true {
        let count = read(readEnd, &byte, 1)
        if count == 1 { break }
        if count < 0 && errno == EINTR { continue }
        return
      }
      stop(signal: Int32(byte))
    }
    thread.start()
    // A parent may have started this process with these signals blocked (test runners do);
    // blocked, they would never stop it.
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&unblocked, signal) }
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    for signal in [SIGINT, SIGTERM, SIGHUP] {
      // A caught signal goes back to its default in a child after exec, unlike an ignored one.
      Glibc.signal(signal) { number in
        var byte = UInt8(truncatingIfNeeded: number)
        _ = Glibc.write(Interruption.pipeWriteEnd.load(ordering: .acquiring), &byte, 1)
      }
    }
  }

  /// Removes what was remembered and exits.
  private static func stop(signal: Int32) -> Never {
    commitLock.withLock { _ in
      let (paths, children, toolName) = state.withLock { ($0.paths, $0.children, $0.toolName) }
      // The harness's scratch directories: callgrind's copy, the pipes of paired runs.
      let directories = ScratchDirectories.current
      for (child, signal) in children { kill(child, signal) }
      for path in paths { unlink(path) }
      for directory in directories { try? FileManager.default.removeItem(atPath: directory) }
      let name = signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "SIGHUP"
      StandardOutput.writeError(
        "\(toolName): stopped by \(name); its cell processes stop with it, and no partial file"
          + " is left\n")
      _exit(128 + signal)
    }
  }

  /// Runs `body` with a signal's handling held back until it returns.
  static func deferringSignals<T>(_ body: () throws -> T) rethrows -> T {
    try commitLock.withLock { _ in try body() }
  }

  /// Remembers a temporary file to remove if the tool is stopped.
  static func remember(_ path: String) { state.withLock { _ = $0.paths.insert(path) } }

  /// Forgets a temporary file that is gone.
  static func forget(_ path: String) { state.withLock { _ = $0.paths.remove(path) } }

  /// Remembers a helper process to stop with `signal` (SIGTERM unless said otherwise; SIGKILL
  /// for a conformance child, which may be stuck in a deadlock) if the tool is stopped.
  package static func remember(child: pid_t, stoppingWith signal: Int32 = SIGTERM) {
    state.withLock { $0.children[child] = signal }
  }

  /// Forgets a helper process that has ended.
  package static func forget(child: pid_t) {
    state.withLock { _ = $0.children.removeValue(forKey: child) }
  }
}
