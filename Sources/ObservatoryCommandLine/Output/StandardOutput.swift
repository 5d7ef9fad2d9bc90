import Foundation

/// Writes to the standard streams with every failure checked: a closed or full stream is an
/// error to report, never a trap (Foundation's `FileHandle.write(_:)` traps).
package enum StandardOutput {
  struct WriteError: Error, CustomStringConvertible {
    let stream: String
    let reason: String
    var description: String { "could not write to \(stream): \(reason)" }
  }

  /// Writes `text` to standard output.
  ///
  /// - Throws: `WriteError` if the stream is closed or full.
  package static func write(_ text: String) throws {
    try write(text, to: STDOUT_FILENO, name: "standard output")
  }

  /// Writes `text` to standard error, and says whether all of it was written: callers whose
  /// main work does not depend on it (progress lines) go on either way.
  @discardableResult
  package static func writeError(_ text: String) -> Bool {
    (try? write(text, to: STDERR_FILENO, name: "standard error")) != nil
  }

  static func write(_ text: String, to descriptor: Int32, name: String) throws {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { buffer in
        Foundation.write(descriptor, buffer.baseAddress, buffer.count)
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw WriteError(stream: name, reason: String(cString: strerror(errno)))
      }
      bytes = bytes.dropFirst(written)
    }
  }
}
