import ObservationReports

extension Comparison {
  /// A plain-text table of the cells, then the summary.
  package func text(changesOnly: Bool = false) -> String {
    let header = [
      "cell (allocator/backend/workload/pattern/n/depth)", "base", "candidate", "change", "verdict",
    ]
    let rows =
      [header]
      + shown(changesOnly: changesOnly).map { cell in
        [
          cell.key, describe(cell.base), describe(cell.candidate), change(cell),
          cell.verdict.rawValue + (cell.reason.isEmpty ? "" : ": " + cell.reason),
        ]
      }
    return TextTable.render(rows) + summary + "\n"
  }
}
