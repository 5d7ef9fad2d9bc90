import Foundation
import ObservationCore

/// Every rule's outcome for one backend.
public struct ConformanceReport: Sendable {
  /// One rule and its outcome.
  public struct Result: Sendable {
    /// The rule.
    public let rule: ConformanceRule
    /// What happened.
    public let outcome: RuleOutcome
  }

  /// The backend's name.
  public let backendName: String
  /// The backend's declaration.
  public let capabilities: BackendCapabilities
  /// The suite version that produced the report.
  public let suiteVersion: String
  /// One result per rule, in catalogue order.
  public let results: [Result]

  /// The results whose outcome is a failure.
  public var failures: [Result] { results.filter { $0.outcome.isFailure } }

  /// The outcome of rule `id`.
  public func outcome(of id: RuleID) -> RuleOutcome? {
    results.first { $0.rule.id == id }?.outcome
  }

  /// A plain-text listing, one rule per line, failures with their findings.
  public var text: String {
    var lines = ["\(backendName): \(capabilities)"]
    for result in results {
      let details = result.outcome.details
      lines.append(
        "  \(result.rule.id.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) "
          + "\(result.outcome.label)\(details.isEmpty ? "" : " — " + details)")
    }
    return lines.joined(separator: "\n")
  }
}
