import Foundation
import ObservationReports

/// The verdicts of `ab`, with what the text, Markdown and JSON renderings share.
package struct PairedReport {
  package let cells: [PairedRunner.Entry]
  package let threshold: Double
  package let confidence: Double

  /// The cells called a regression: any one makes `ab` exit with status 2.
  package var regressions: [PairedRunner.Entry] { cells.filter { $0.verdict == .regression } }

  /// The cells that could not be told from noise: without a regression, they make `ab` exit
  /// with status 4 (the tool's `ExitStatus.inconclusive`).
  package var inconclusive: [PairedRunner.Entry] {
    cells.filter { $0.verdict == .inconclusive }
  }

  /// What the rounds conclude over every cell: what `ab` exits with.
  package var conclusion: Comparison.Conclusion {
    Comparison.Conclusion(regressions: regressions.count, inconclusive: inconclusive.count)
  }

  private func name(_ cell: Cell) -> String { cell.key }

  package func columns(_ entry: PairedRunner.Entry) -> [String] {
    let median = { (values: [Double]) in
      CellResult.Quantiles(values).map { readableNanoseconds($0.median) } ?? "-"
    }
    guard let estimate = entry.estimate else {
      return [
        name(entry.cell), median(entry.baseSamples), median(entry.candidateSamples), "-", "-",
      ]
    }
    return [
      name(entry.cell), median(entry.baseSamples), median(entry.candidateSamples),
      readableChange(ofRatio: estimate.ratio),
      "[\(readableChange(ofRatio: estimate.lower)), \(readableChange(ofRatio: estimate.upper))]",
    ]
  }

  package func shown(_ changesOnly: Bool) -> [PairedRunner.Entry] {
    changesOnly ? cells.filter { $0.verdict != .unchanged } : cells
  }

  package var summary: String {
    let counts = Dictionary(grouping: cells, by: \.verdict).mapValues(\.count)
    let parts = Comparison.Verdict.allCases.compactMap { verdict in
      counts[verdict].map { "\($0) \(verdict.rawValue)" }
    }.joined(separator: ", ")
    return "\(cells.count) cells measured on both builds, interleaved, at a"
      + " \(csvNumber(threshold * 100))% threshold with \(csvNumber(confidence * 100))% intervals:"
      + " \(parts)"
      + Comparison.concludingSentence(
        regressions: regressions.count, inconclusive: inconclusive.count)
  }

  /// A report of `cells` judged at `threshold` with `confidence`.
  package init(cells: [PairedRunner.Entry], threshold: Double, confidence: Double) {
    self.cells = cells
    self.threshold = threshold
    self.confidence = confidence
  }
}
