import ObservationConformance
import ObservationReports

/// Rules × backends: the reports of one `conformance` run, one per backend in column order,
/// which the command writes as Markdown (`ConformanceMatrix+Markdown.swift`), JSON
/// (`ConformanceMatrix+JSON.swift`) and the CSV of ``ConformanceMatrixCSV`` (``csv``).
struct ConformanceMatrix {
  /// One report per backend, in column order.
  let reports: [ConformanceReport]

  /// A matrix of `reports`.
  init(_ reports: [ConformanceReport]) { self.reports = reports }

  /// The matrix's rows, one per rule and backend: each backend's rules in the catalogue's
  /// order, the backends in column order.
  ///
  /// - Complexity: O(*r* × *b*) for *r* rules and *b* backends.
  var rows: [ConformanceMatrixRow] {
    reports.flatMap { report in
      report.results.map { result in
        let rule = result.rule
        return ConformanceMatrixRow(
          suiteVersion: report.suiteVersion, rule: rule.id.rawValue, group: rule.group.rawValue,
          level: rule.levelDescription, title: rule.title,
          traits: Set(rule.traits.map(\.name)), backend: report.backendName,
          outcome: ConformanceOutcome(result.outcome.kind), details: result.outcome.details)
      }
    }
  }

  /// The matrix as its CSV file (`Results/conformance.csv`).
  ///
  /// - Complexity: O(*n*) in the length of the text.
  var csv: String { ConformanceMatrixCSV.csv(of: rows) }
}

extension ConformanceOutcome {
  /// The matrix's word for the suite's outcome kind `kind`.
  ///
  /// - Complexity: O(1).
  init(_ kind: RuleOutcome.Kind) {
    switch kind {
    case .passed: self = .passed
    case .failed: self = .failed
    case .notApplicable: self = .notApplicable
    case .probeObserved: self = .probeObserved
    case .probeNotObserved: self = .probeNotObserved
    case .probeNotSeenViolated: self = .probeNotSeenViolated
    case .untested: self = .untested
    case .crashed: self = .crashed
    case .timedOut: self = .timedOut
    }
  }
}
