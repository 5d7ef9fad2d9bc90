import Foundation
import ObservationConformance
import ObservationReports

/// The committed conformance matrix, `Results/conformance.csv`: each rule's outcome on each
/// built-in backend in an isolated run at full strength, which the sanitizers' passes hold
/// their runs to.
struct PinnedMatrix {
  /// `Results/conformance.csv`, found from this file's place in the package.
  static let url = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // SanitizerPass
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
    .appendingPathComponent("Results/conformance.csv")

  private let outcomes: [String: RuleOutcome.Kind]

  /// Reads the matrix from ``url``.
  init() throws {
    let rows = try ConformanceMatrixCSV.rows(
      fromCSV: String(contentsOf: Self.url, encoding: .utf8))
    // The matrix's outcomes are the suite's kinds by the same words.
    outcomes = Dictionary(
      uniqueKeysWithValues: rows.compactMap { row in
        RuleOutcome.Kind(rawValue: row.outcome.rawValue).map {
          (Self.key(row.rule, row.backend), $0)
        }
      })
  }

  /// The outcome the matrix records for `rule` on the backend called `backend`, or `nil` if it
  /// has none.
  func outcome(of rule: ConformanceRule, on backend: String) -> RuleOutcome.Kind? {
    outcomes[Self.key(rule.id.rawValue, backend)]
  }

  private static func key(_ rule: String, _ backend: String) -> String {
    "\(rule) on \(backend)"
  }
}
