import Foundation
import ObservationConformance
import ObservationCore

extension ConformanceMatrix {
  /// The matrix as JSON, for CI tools: the suite's version, then per backend its declaration
  /// and every rule's outcome (the CSV's columns: rule, group, level, title, outcome, details).
  ///
  /// - Complexity: O(*r* × *b*) for *r* rules and *b* backends.
  func json() throws -> String {
    let document = Document(
      suiteVersion: reports.first?.suiteVersion ?? ConformanceSuite.version,
      backends: reports.map { report in
        Document.Backend(
          backend: report.backendName, capabilities: report.capabilities.description,
          rules: report.results.map { result in
            Document.Rule(
              rule: result.rule.id.rawValue, group: result.rule.group.rawValue,
              level: result.rule.levelDescription,
              title: result.rule.title, outcome: result.outcome.kind.rawValue,
              details: result.outcome.details)
          })
      })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
  }

  private struct Document: Encodable {
    struct Rule: Encodable {
      var rule, group, level, title, outcome, details: String
    }
    struct Backend: Encodable {
      var backend: String
      var capabilities: String
      var rules: [Rule]
    }
    var suiteVersion: String
    var backends: [Backend]

    enum CodingKeys: String, CodingKey {
      case suiteVersion = "suite_version"
      case backends
    }
  }
}
