import Foundation
import ObservationHarness
import ObservationReports

extension PairedReport {
  /// The report as a plain-text table; only the changed cells with `changesOnly`.
  package func text(changesOnly: Bool = false) -> String {
    let header = [
      "cell (allocator/backend/workload/pattern/n/depth)", "base", "candidate", "change",
      "\(csvNumber(confidence * 100))% interval", "verdict",
    ]
    let rows =
      [header]
      + shown(changesOnly).map {
        columns($0) + [$0.verdict.rawValue + ($0.reason.isEmpty ? "" : ": " + $0.reason)]
      }
    return TextTable.render(rows) + summary + "\n"
  }
}
