/// Collects findings while a check runs.
struct Verdict {
  private(set) var findings: [Finding] = []
  var notes: [String] = []

  /// Records a finding unless `condition` holds.
  mutating func expect(
    _ condition: Bool, _ action: @autoclosure () -> String,
    expected: @autoclosure () -> String, observed: @autoclosure () -> String
  ) {
    if !condition {
      findings.append(Finding(action: action(), expected: expected(), observed: observed()))
    }
  }

  /// Compares two sequences exactly.
  mutating func expectEqual<T: Equatable>(
    _ observed: T, _ expected: T, _ action: @autoclosure () -> String
  ) {
    expect(observed == expected, action(), expected: "\(expected)", observed: "\(observed)")
  }

  mutating func note(_ text: String) { notes.append(text) }

  /// The result, with at most ``maximumFindings`` findings (a last one counts the rest).
  var result: CheckResult {
    if findings.isEmpty {
      return .holds(note: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }
    guard findings.count > Self.maximumFindings else { return .violated(findings) }
    let shown = Array(findings.prefix(Self.maximumFindings))
    let rest = findings.count - shown.count
    return .violated(
      shown + [
        Finding(
          action: "the same checks", expected: "no further findings",
          observed: "\(rest) more like the above")
      ])
  }

  /// How many findings a report shows before summarising the rest.
  static let maximumFindings = 4
}

/// Compares observer lists as sequences when order is declared, as multisets otherwise
/// (META-03).
func sameObservers(_ lhs: [Int], _ rhs: [Int], ordered: Bool) -> Bool {
  ordered ? lhs == rhs : lhs.sorted() == rhs.sorted()
}

/// Shortens long arrays in messages.
func brief<T>(_ values: [T], limit: Int = 12) -> String {
  if values.count <= limit { return "\(values)" }
  let head = values.prefix(limit).map { "\($0)" }.joined(separator: ", ")
  return "[\(head), … (\(values.count) in all)]"
}
