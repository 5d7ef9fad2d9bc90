/// The results of a report an export holds, and how many it leaves out: only a measured cell
/// (``CellResult/Status/isMeasured``) has a cost to export; a capped, invalid, failed or
/// not-applicable one is counted by its status instead.
public struct ExportSelection: Sendable {
  /// The measured results, in report order, reference rows included.
  public var exported: [CellResult]
  /// How many results of each status were left out, by status name in alphabetical order
  /// (`capped`, `failed`, `invalid`, `n/a`); no entry for a status no result has.
  public var leftOut: [(status: String, count: Int)]

  /// The measured results of `results`, and the count of the others by status.
  ///
  /// - Complexity: O(*r*) for *r* results.
  public init(_ results: [CellResult]) {
    exported = results.filter(\.status.isMeasured)
    var counts: [String: Int] = [:]
    for result in results where !result.status.isMeasured {
      counts[result.status.name, default: 0] += 1
    }
    leftOut = counts.sorted { $0.key < $1.key }.map { (status: $0.key, count: $0.value) }
  }

  /// How many results were left out in all.
  ///
  /// - Complexity: O(*s*) for *s* statuses (at most four).
  public var leftOutCount: Int { leftOut.reduce(0) { $0 + $1.count } }

  /// What was left out, in words, for a line on standard error: `left out 37 cells (capped 30,
  /// n/a 7)`; `nil` when every cell was measured.
  ///
  /// - Complexity: O(*s*) for *s* statuses (at most four).
  public var leftOutSummary: String? {
    guard leftOutCount > 0 else { return nil }
    let counts = leftOut.map { "\($0.status) \($0.count)" }.joined(separator: ", ")
    return "left out \(leftOutCount) cell\(leftOutCount == 1 ? "" : "s") (\(counts)): not measured"
  }
}
