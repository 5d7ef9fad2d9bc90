import Foundation

/// Progress on standard error: a bar with an estimate on a terminal, plain lines otherwise,
/// nothing when quiet.
public struct SweepProgress {
  enum Style { case bar, lines, quiet }

  let total: Int
  let style: Style
  let start = Date()
  private(set) var done = 0

  /// Progress over `total` cells, silent when `quiet`.
  public init(total: Int, quiet: Bool) {
    self.total = total
    style = quiet ? .quiet : (isatty(STDERR_FILENO) != 0 ? .bar : .lines)
  }

  /// Counts one cell done and shows `label` on standard error.
  public mutating func advance(_ label: String) {
    done += 1
    switch style {
    case .quiet: return
    case .lines: write("observatory: [\(done)/\(total)] \(label)\n")
    case .bar:
      let width = 30
      let filled = total == 0 ? width : width * done / total
      let elapsed = Date().timeIntervalSince(start)
      let remaining = done == 0 ? 0 : elapsed / Double(done) * Double(total - done)
      let bar =
        String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
      write("\r\u{1B}[K[\(bar)] \(done)/\(total) ETA \(Self.format(remaining))  \(label)")
      if done == total { write("\n") }
    }
  }

  /// A sweep whose standard error is closed or full still measures and writes its report.
  private func write(_ text: String) { StandardOutput.writeError(text) }

  static func format(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    return whole >= 60 ? "\(whole / 60)m\(String(format: "%02d", whole % 60))s" : "\(whole)s"
  }
}
