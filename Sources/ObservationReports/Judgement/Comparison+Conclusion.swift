extension Comparison {
  /// What a comparison concludes over all its cells: what `compare` and `ab` exit with (status
  /// 2, 4 or 0).
  ///
  /// A regression decides it, whatever the other cells say. Without one, a cell that could not
  /// be told from noise leaves the whole comparison ``inconclusive``: "no regression seen" is
  /// not a pass for that cell. Cells that are not comparable or capped in the candidate are
  /// reported, not concluded on.
  public enum Conclusion: String, CaseIterable, Sendable {
    /// At least one cell regressed.
    case regression
    /// No cell regressed, but at least one is ``Verdict/inconclusive``.
    case inconclusive
    /// No cell regressed and none is ``Verdict/inconclusive``.
    case noRegression = "no regression"

    /// The conclusion over `regressions` regressed cells and `inconclusive` inconclusive ones.
    ///
    /// - Complexity: O(1).
    public init(regressions: Int, inconclusive: Int) {
      if regressions > 0 {
        self = .regression
      } else if inconclusive > 0 {
        self = .inconclusive
      } else {
        self = .noRegression
      }
    }
  }

  /// The cells that could not be told from noise: without a regression, they make `compare`
  /// exit with status 4.
  ///
  /// - Complexity: O(*c*) for *c* cells.
  public var inconclusive: [Entry] { cells.filter { $0.verdict == .inconclusive } }

  /// What the comparison concludes over every cell.
  ///
  /// - Complexity: O(*c*) for *c* cells.
  public var conclusion: Conclusion {
    Conclusion(regressions: regressions.count, inconclusive: inconclusive.count)
  }

  /// The summary's last sentence: the regressions, or "No regression." only when no cell was
  /// left `inconclusive`; a comparison that could not tell says so instead of passing.
  ///
  /// - Complexity: O(1).
  package static func concludingSentence(regressions: Int, inconclusive: Int) -> String {
    switch Conclusion(regressions: regressions, inconclusive: inconclusive) {
    case .regression: return ". \(regressions) regression(s)."
    case .inconclusive:
      return ". No regression seen, but \(inconclusive) cell(s) could not be told from noise:"
        + " for them this is not a pass."
    case .noRegression: return ". No regression."
    }
  }
}
