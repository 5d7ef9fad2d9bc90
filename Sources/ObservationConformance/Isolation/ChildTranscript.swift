import Foundation

/// What a conformance child wrote besides its stream (a backend's `print`, the Swift runtime's
/// `Fatal error: ...`), as far as it is kept, with marks saying where each unit started.
struct ChildTranscript {
  /// The kept lines; the first is line number ``dropped``.
  private var lines: [Substring] = []
  /// How many lines were let go from the front.
  private var dropped = 0

  /// How many lines are kept at most.
  static let limit = 200

  /// How the Swift runtime and its backtracer start a stack trace.
  static let stackTraceHeadings = [
    "Current stack trace:", "💣 Program crashed", "*** Program crashed",
  ]

  /// The number the next line will have: a unit's mark when it starts.
  var mark: Int { dropped + lines.count }

  /// Keeps `line` unless it is blank.
  ///
  /// - Complexity: amortized O(1).
  mutating func append(_ line: String) {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { return }
    lines.append(Substring(trimmed))
    if lines.count > 2 * Self.limit {
      dropped += lines.count - Self.limit
      lines.removeFirst(lines.count - Self.limit)
    }
  }

  /// The last `count` lines written since `mark`, up to the stack trace the Swift runtime prints
  /// after a trap, joined with ` / ` (`File.swift:12: Fatal error: ...`, say).
  func lastWords(since mark: Int, count: Int = 3) -> String {
    let since = lines[max(0, mark - dropped)...]
    let trace = since.firstIndex { line in
      Self.stackTraceHeadings.contains { line.hasPrefix($0) }
    }
    return since[..<(trace ?? since.endIndex)].suffix(count).joined(separator: " / ")
  }
}
