import Foundation
import ObservationHarness

/// Progress on standard error: on a terminal, one line redrawn in place (a bar, the cells done,
/// the time left, the cell just measured) that fits the terminal's width; anywhere else (a CI
/// log), a line each time another tenth of the cells is done, and no carriage return; nothing
/// when quiet.
package struct SweepProgress: SweepProgressReporting {
  enum Style { case bar, lines, quiet }

  let total: Int
  let style: Style
  let start = Date()
  private(set) var done = 0
  /// What each line of progress starts with, off a terminal: the tool's name.
  let toolName: String
  /// The width of standard error's terminal, asked for every line.
  var columns: () -> Int = { TerminalWidth.standardError() }

  /// Progress over `total` cells, silent when `quiet`, its lines starting with `toolName`.
  ///
  /// - Complexity: O(1).
  package init(total: Int, quiet: Bool, toolName: String = "observatory") {
    self.total = total
    self.toolName = toolName
    style = quiet ? .quiet : (isatty(STDERR_FILENO) != 0 ? .bar : .lines)
  }

  /// Progress over each stretch of a sweep, silent when `quiet`, its lines starting with
  /// `toolName`.
  package static func factory(quiet: Bool, toolName: String) -> SweepProgressFactory {
    { total in SweepProgress(total: total, quiet: quiet, toolName: toolName) }
  }

  /// Counts one cell done and shows `label`, the time left estimated as the cells left times
  /// the average cell so far (for cells that all cost about the same, as `ab`'s do).
  ///
  /// - Complexity: O(*c*) for *c* characters written.
  package mutating func advance(_ label: String) {
    let elapsed = Date().timeIntervalSince(start)
    advance(label, remainingSeconds: elapsed / Double(done + 1) * Double(total - done - 1))
  }

  /// Counts one cell done and shows `label` with `remainingSeconds` left, as the sweep
  /// estimates it (`nil`: not known yet).
  ///
  /// - Complexity: O(*c*) for *c* characters written.
  package mutating func advance(_ label: String, remainingSeconds: Double?) {
    done += 1
    switch style {
    case .quiet: return
    case .lines:
      guard Self.completesATenth(done: done, total: total) else { return }
      let left = remainingSeconds.map { ", \(Self.format($0)) left" } ?? ""
      write("\(toolName): [\(done)/\(total)\(left)] \(label)\n")
    case .bar:
      let line = Self.line(
        done: done, total: total, remainingSeconds: remainingSeconds, label: label,
        columns: columns())
      write("\r\u{1B}[K" + line + (done == total ? "\n" : ""))
    }
  }

  /// Whether the cell that made `done` of `total` is the first past another tenth of them, or
  /// the last: in a log, progress is a line per tenth (about 1,200 cells make 10 lines, not
  /// 1,200), and a stretch of fewer than ten cells a line per cell.
  ///
  /// - Complexity: O(1).
  static func completesATenth(done: Int, total: Int) -> Bool {
    guard total > 0, done < total else { return true }
    return done * 10 / total > (done - 1) * 10 / total
  }

  /// The line a terminal of `columns` shows: `[██████······] 12/850 3m05s left  label`, at most
  /// `columns - 1` characters, so that the terminal never wraps it (a carriage return goes back
  /// to the start of the last row only). The bar shrinks, then goes, and the label is cut with
  /// `…`, before the counts and the time left are.
  ///
  /// - Complexity: O(*c*) for *c* characters.
  static func line(
    done: Int, total: Int, remainingSeconds: Double?, label: String, columns: Int
  ) -> String {
    let room = max(1, columns - 1)
    let status =
      "\(done)/\(total)" + (remainingSeconds.map { " \(format($0)) left" } ?? "")
    // The bar takes what the longest status and 40 characters of label leave, up to 30
    // cells, so that it keeps its width from cell to cell; it goes when fewer than 5 are left.
    let longestStatus = "\(total)/\(total) 00m00s left".count
    let barWidth = min(30, room - longestStatus - 3 - 2 - 40)
    var line = status
    if barWidth >= 5 {
      let filled = total == 0 ? barWidth : barWidth * done / total
      line =
        "[" + String(repeating: "█", count: filled)
        + String(repeating: "·", count: barWidth - filled) + "] " + status
    }
    line += "  " + label
    guard line.count > room else { return line }
    return String(line.prefix(room - 1)) + "…"
  }

  /// A sweep whose standard error is closed or full still measures and writes its report.
  private func write(_ text: String) { StandardOutput.writeError(text) }

  /// `seconds` as `42s`, `3m05s` or `2h07m`.
  static func format(_ seconds: Double) -> String {
    let whole = Int(max(0, seconds).rounded())
    if whole >= 3600 { return "\(whole / 3600)h" + String(format: "%02dm", whole % 3600 / 60) }
    return whole >= 60 ? "\(whole / 60)m\(String(format: "%02d", whole % 60))s" : "\(whole)s"
  }
}
