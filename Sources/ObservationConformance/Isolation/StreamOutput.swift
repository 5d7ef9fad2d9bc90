import CProcessControl
import Foundation
import Synchronization

/// Where a conformance child writes its stream: the standard output it was started with, kept
/// for the stream alone.
///
/// ``takingStandardOutput()`` moves that descriptor aside and points standard output at
/// standard error, line-buffered, so that whatever else the process prints cannot be taken for
/// a line of the stream and is not lost in a buffer when the process traps. (The runner reads
/// standard error along with the stream, in one pipe, for a crash's details.) Each line of the
/// stream is written at once and whole, from any thread, and starts on a line of its own, even
/// after output that did not end its line.
final class StreamOutput: Sendable {
  private let descriptor: Int32
  /// Held while a line is written, so that the heartbeat's lines do not cut into the rules'.
  private let writing = Mutex(())

  private init(descriptor: Int32) { self.descriptor = descriptor }

  /// Takes standard output for the stream.
  ///
  /// - Throws: ``ConformanceIsolationError/invalidRequest(_:)`` if the descriptors cannot be
  ///   moved.
  static func takingStandardOutput() throws -> StreamOutput {
    // Every output stream: `stdout` itself is a global variable Swift 6 does not let
    // concurrent code read.
    fflush(nil)
    let kept = dup(STDOUT_FILENO)
    guard kept >= 0, dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else {
      throw ConformanceIsolationError.invalidRequest(
        "standard output cannot be kept for the stream: \(String(cString: strerror(errno)))")
    }
    _ = fcntl(kept, F_SETFD, FD_CLOEXEC)
    _ = process_control_line_buffer_standard_output()
    return StreamOutput(descriptor: kept)
  }

  /// Writes `line` between two newlines at once; exits the process (status 1) if the parent no
  /// longer reads.
  func write(_ line: ConformanceStreamLine) {
    var bytes = Array(("\n" + line.text + "\n").utf8)[...]
    writing.withLock { _ in
      while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes {
          Foundation.write(descriptor, $0.baseAddress, $0.count)
        }
        if written < 0 {
          if errno == EINTR { continue }
          exit(1)
        }
        bytes = bytes.dropFirst(written)
      }
    }
  }
}
