import Foundation
import ObservationConformance

extension ConformanceMatrix {
  /// A Markdown table (rules as rows, backends as columns; failures, and crashes and timeouts
  /// of binding rules, in bold), then every failure, crash, timeout and probe with its details,
  /// then the declarations.
  var markdown: String {
    guard let first = reports.first else { return "" }
    var out: [String] = []
    out.append(
      "| rule | level | " + reports.map { "`\($0.backendName)`" }.joined(separator: " | ") + " |")
    out.append("|---|---|" + String(repeating: "---|", count: reports.count))
    for (index, result) in first.results.enumerated() {
      let rule = result.rule
      let cells = reports.map { report -> String in
        let outcome = report.results[index].outcome
        return outcome.isFailure ? "**\(outcome.label)**" : outcome.label
      }
      out.append(
        "| \(rule.id) \(Self.markdownEscaped(rule.title)) | \(rule.levelDescription) | "
          + cells.joined(separator: " | ") + " |")
    }
    out.append("")
    out.append("## Failures and probes")
    out.append("")
    for report in reports {
      let notable = report.results.filter {
        [.failed, .crashed, .timedOut].contains($0.outcome.kind) || $0.outcome.kind.isProbe
      }
      guard !notable.isEmpty else { continue }
      out.append("### `\(report.backendName)`")
      out.append("")
      for result in notable {
        out.append(
          "- **\(result.rule.id)** \(result.outcome.label): \(Self.markdownEscaped(result.outcome.details))"
        )
      }
      out.append("")
    }
    out.append("## Declarations")
    out.append("")
    for report in reports {
      out.append("- `\(report.backendName)`: \(report.capabilities)")
    }
    out.append("")
    out.append("## Not applicable and untested, with reasons")
    out.append("")
    for (index, result) in first.results.enumerated() {
      let reasons = Set(
        reports.compactMap { report -> String? in
          let outcome = report.results[index].outcome
          switch outcome.kind {
          case .notApplicable, .untested: return outcome.details
          default: return nil
          }
        })
      for reason in reasons.sorted() {
        out.append("- **\(result.rule.id)**: \(Self.markdownEscaped(reason))")
      }
    }
    out.append("")
    out.append("## The rules, and why each exists")
    out.append("")
    for result in first.results {
      let rule = result.rule
      out.append(
        "- **\(rule.id)** (\(rule.levelDescription)) \(Self.markdownEscaped(rule.title)). "
          + Self.markdownEscaped(rule.intent))
    }
    return out.joined(separator: "\n") + "\n"
  }

  private static func markdownEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
  }
}
