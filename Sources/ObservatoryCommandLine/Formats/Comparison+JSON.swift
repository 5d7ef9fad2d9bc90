import Foundation
import ObservationReports

extension Comparison {
  /// The comparison as JSON, for CI tools: the metric and threshold, the machines'
  /// differences, the reference rows' move, the cells' scatter and each backend's move
  /// (time), every cell in both reports with both results, the ratio and the verdict,
  /// the cells found in one report only, the number of regressions and of inconclusive cells,
  /// and the conclusion over them all (`regression`, `inconclusive` or `no regression`: what
  /// the exit status, 2, 4 or 0, says).
  ///
  /// - Parameter changesOnly: leave out the cells whose verdict is `unchanged`.
  /// - Complexity: O(*c*) for *c* cells.
  package func json(changesOnly: Bool = false) throws -> String {
    let document = Document(
      metric: metric.rawValue, threshold: threshold, machineDifferences: machineDifferences,
      machineShift: shift?.machineLogShift.map { exp($0) - 1 },
      scatter: shift.map { exp($0.scatter) - 1 },
      backends: shift?.moves.map { move in
        Document.Backend(
          backend: move.backend, cells: move.cells, change: move.change,
          deviations: move.relativeDeviations, verdict: move.verdict.rawValue,
          reason: move.reason.isEmpty ? nil : move.reason)
      },
      conclusion: conclusion.rawValue, regressions: regressions.count,
      inconclusive: inconclusive.count,
      cells: cells.filter { !changesOnly || $0.verdict != .unchanged }.map { entry in
        Document.Cell(
          cell: entry.key, verdict: entry.verdict.rawValue,
          reason: entry.reason.isEmpty ? nil : entry.reason, ratio: entry.ratio,
          base: entry.base, candidate: entry.candidate)
      },
      onlyInBase: onlyInBase, onlyInCandidate: onlyInCandidate)
    return try JSONText.encode(document)
  }

  private struct Document: Encodable {
    struct Cell: Encodable {
      var cell: String
      var verdict: String
      var reason: String?
      var ratio: Double?
      var base: CellResult?
      var candidate: CellResult?
    }
    /// How one backend moved as a whole (time).
    struct Backend: Encodable {
      var backend: String
      var cells: Int
      var change: Double
      var deviations: Double?
      var verdict: String
      var reason: String?
    }
    var metric: String
    var threshold: Double
    var machineDifferences: [String]
    var machineShift: Double?
    var scatter: Double?
    var backends: [Backend]?
    var conclusion: String
    var regressions: Int
    var inconclusive: Int
    var cells: [Cell]
    var onlyInBase: [String]
    var onlyInCandidate: [String]

    enum CodingKeys: String, CodingKey {
      case metric, threshold, scatter, backends, conclusion, regressions, inconclusive, cells
      case machineDifferences = "machine_differences"
      case machineShift = "machine_shift"
      case onlyInBase = "only_in_base"
      case onlyInCandidate = "only_in_candidate"
    }
  }
}
