import Foundation
import ObservationHarness
import ObservationReports

extension PairedReport {
  /// The paired comparison as JSON: the threshold and confidence, the conclusion over every
  /// cell (`regression`, `inconclusive` or `no regression`: what the exit status, 2, 4 or 0,
  /// says), the number of regressions and of inconclusive cells, and per cell its verdict, the
  /// ratio candidate / base with its confidence interval, the per-round ratios and every
  /// repetition of both builds.
  ///
  /// - Parameter changesOnly: leave out the cells whose verdict is `unchanged`.
  /// - Complexity: O(*s*) for *s* samples.
  package func json(changesOnly: Bool = false) throws -> String {
    let document = Document(
      threshold: threshold, confidence: confidence, conclusion: conclusion.rawValue,
      regressions: regressions.count, inconclusive: inconclusive.count,
      cells: cells.filter { !changesOnly || $0.verdict != .unchanged }.map { entry in
        Document.Cell(
          cell: entry.cell.key, verdict: entry.verdict.rawValue,
          reason: entry.reason.isEmpty ? nil : entry.reason, ratio: entry.estimate?.ratio,
          lower: entry.estimate?.lower, upper: entry.estimate?.upper,
          roundRatios: entry.roundRatios, baseNanoseconds: entry.baseSamples,
          candidateNanoseconds: entry.candidateSamples)
      })
    return try JSONText.encode(document)
  }

  private struct Document: Encodable {
    struct Cell: Encodable {
      var cell, verdict: String
      var reason: String?
      var ratio, lower, upper: Double?
      var roundRatios, baseNanoseconds, candidateNanoseconds: [Double]

      enum CodingKeys: String, CodingKey {
        case cell, verdict, reason, ratio, lower, upper
        case roundRatios = "round_ratios"
        case baseNanoseconds = "base_ns"
        case candidateNanoseconds = "candidate_ns"
      }
    }
    var threshold, confidence: Double
    var conclusion: String
    var regressions, inconclusive: Int
    var cells: [Cell]
  }
}
