import Foundation
import ObservationHarness
import ObservationReports

extension PairedReport {
  /// The report as a Markdown table; only the changed cells with `changesOnly`.
  package func markdown(changesOnly: Bool = false) -> String {
    var lines = [
      summary, "",
      "| cell | base | candidate | change | \(csvNumber(confidence * 100))% interval | verdict |",
      "|---|---:|---:|---:|---:|---|",
    ]
    for cell in shown(changesOnly) {
      let verdict = cell.verdict == .regression ? "**regression**" : cell.verdict.rawValue
      lines.append("| " + columns(cell).joined(separator: " | ") + " | \(verdict) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
