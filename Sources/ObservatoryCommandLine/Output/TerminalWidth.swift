import Foundation

/// How many columns a line written to standard error may take before the terminal wraps it.
package enum TerminalWidth {
  /// The width when nothing says otherwise.
  package static let fallback = 80

  /// The columns of standard error's terminal: `COLUMNS` when the environment sets it to a
  /// positive number (a user's override, as Python's `shutil.get_terminal_size` reads it), else
  /// what the terminal reports (`ioctl(TIOCGWINSZ)`), else ``fallback``. Asked again for
  /// every line, so that a resized window is followed.
  ///
  /// - Parameter environment: the variables to read `COLUMNS` from.
  /// - Complexity: O(1): at most one system call.
  package static func standardError(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Int {
    if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
    var size = winsize()
    if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 {
      return Int(size.ws_col)
    }
    return fallback
  }
}
