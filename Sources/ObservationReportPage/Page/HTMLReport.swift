import ObservationReports

/// A report as one self-contained HTML page: its run's metadata, a log-log chart per workload
/// of the cost per operation against *n* (a line per backend, the reference rows dashed as the
/// floor, a cross where a capped cell stops a line, a table of every value under it), the
/// memory and cache columns charted the same way when the report has them, and optionally the
/// comparison with a baseline and the conformance matrix.
///
/// The page loads nothing: its style, its drawings and its one small script are inline, and its
/// Content Security Policy lets only that script run. Everything it shows from its inputs is
/// escaped, so a backend name or note holding markup shows as text.
///
/// The page takes values, not paths: the command line reads the files and phrases their errors.
///
/// ```swift
/// let report = try Report.read("Results/2026-11-23_e4202d2fd5eb_vm.csv")
/// let page = HTMLReport(report: report, source: "Results/2026-11-23_e4202d2fd5eb_vm.csv")
/// print(page.html)
/// ```
package struct HTMLReport {
  /// A baseline the report is compared with.
  package struct Baseline {
    /// The baseline's file, as given.
    package var path: String
    /// The comparison of the report (the candidate) with the baseline (the base).
    package var comparison: Comparison

    /// The comparison `comparison` with the baseline read from `path`.
    ///
    /// - Complexity: O(1).
    package init(path: String, comparison: Comparison) {
      self.path = path
      self.comparison = comparison
    }

    /// The baseline `base`, read from `path`, compared with `report` (the candidate) as the
    /// page compares: at `threshold` (`compare`'s default for the report's metric if `nil`),
    /// with reports of another machine allowed, since the page shows and does not gate (its
    /// summary names the machines' differences).
    ///
    /// - Throws: `Comparison.InputError` when the two cannot be compared (no cell in common,
    ///   another metric or build).
    /// - Complexity: the comparison's, O(*c* log *c*) for *c* cells.
    package init(
      path: String, base: Report, comparedWith report: Report, threshold: Double? = nil
    ) throws {
      let metric = report.results[0].metric
      self.init(
        path: path,
        comparison: try Comparison(
          base: base.results, candidate: report.results,
          threshold: threshold ?? Comparison.defaultThreshold(for: metric),
          allowingOtherMachine: true))
    }
  }

  /// A conformance matrix shown with the report.
  package struct Conformance {
    /// The matrix's file, as given.
    package var path: String
    /// The matrix's rows, one per rule and backend.
    package var rows: [ConformanceMatrixRow]

    /// The matrix `rows`, read from `path`.
    ///
    /// - Complexity: O(1).
    package init(path: String, rows: [ConformanceMatrixRow]) {
      self.path = path
      self.rows = rows
    }
  }

  /// The report charted.
  package var report: Report
  /// The report's file, as given; shown at the top of the page.
  package var source: String
  /// The baseline, if any.
  package var baseline: Baseline?
  /// The conformance matrix, if any.
  package var conformance: Conformance?
  /// The command that wrote the page, which its head and footer name.
  package var generator = "report"

  /// A page of `report`, read from `source`, with `baseline` and `conformance` if given.
  ///
  /// - Complexity: O(1).
  package init(
    report: Report, source: String, baseline: Baseline? = nil, conformance: Conformance? = nil
  ) {
    self.report = report
    self.source = source
    self.baseline = baseline
    self.conformance = conformance
  }
}
