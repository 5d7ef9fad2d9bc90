import Foundation
import ObservationConformance
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
/// ```swift
/// let page = try HTMLReport.read(
///   report: "Results/2026-11-23_e4202d2fd5eb_vm.csv", conformance: "Results/conformance.csv")
/// try OutputFile("report.html", replacing: false).write(page.html)
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
  }

  /// A conformance matrix shown with the report.
  package struct Conformance {
    /// The matrix's file, as given.
    package var path: String
    /// The matrix's rows, one per rule and backend.
    package var rows: [ConformanceMatrix.Row]

    /// The matrix `rows`, read from `path`.
    ///
    /// - Complexity: O(1).
    package init(path: String, rows: [ConformanceMatrix.Row]) {
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

  /// Reads the report at `report`, and the baseline and conformance matrix if given, and
  /// compares the report with the baseline as `compare` does (`threshold` as a fraction;
  /// `compare`'s default for the report's metric if `nil`). The page names `generator` as the
  /// command that wrote it.
  ///
  /// - Throws: ``ToolError`` in one line naming the file, the line and the problem: a report
  ///   or matrix that cannot be read or is malformed, or a baseline that shares no cell with
  ///   the report or measures another metric.
  /// - Complexity: O(*b*) for *b* bytes read, and the comparison's cost.
  package static func read(
    report path: String, baseline baselinePath: String? = nil,
    conformance conformancePath: String? = nil, threshold: Double? = nil, generator: String
  ) throws -> HTMLReport {
    let report: Report
    do { report = try Report.read(path) } catch let error as ReportError {
      throw ToolError(error.description)
    }
    var page = HTMLReport(report: report, source: path)
    page.generator = generator
    if let baselinePath {
      do {
        let base = try Report.read(baselinePath)
        let metric = report.results[0].metric
        page.baseline = Baseline(
          path: baselinePath,
          comparison: try Comparison(
            base: base.results, candidate: report.results,
            threshold: threshold ?? Comparison.defaultThreshold(for: metric),
            // The page shows; it does not gate. Its summary names the machines' differences.
            allowingOtherMachine: true))
      } catch let error as ReportError {
        throw ToolError(error.description)
      } catch let error as Comparison.InputError {
        throw ToolError("\(baselinePath) and \(path): \(error.description)")
      }
    }
    if let conformancePath {
      page.conformance = Conformance(
        path: conformancePath, rows: try readConformance(conformancePath))
    }
    return page
  }

  /// The rows of the conformance matrix at `path`, read with ``ConformanceMatrix``'s reader.
  private static func readConformance(_ path: String) throws -> [ConformanceMatrix.Row] {
    var status = stat()
    guard stat(path, &status) == 0 else {
      throw ToolError(
        errno == ENOENT
          ? "\(path): no such file"
          : "\(path): cannot be read: \(String(cString: strerror(errno)))")
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw ToolError(
        "\(path): cannot be read: not a regular file (the conformance matrix is the CSV file"
          + " `conformance --output-directory` writes)")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ToolError("\(path): cannot be read: \(String(cString: strerror(errno)))")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ToolError("\(path): cannot be read: not UTF-8 text")
    }
    let rows: [ConformanceMatrix.Row]
    do { rows = try ConformanceMatrix.rows(fromCSV: text) } catch let error
      as ConformanceMatrix.CSVError
    {
      throw ToolError("\(path):\(error.line): \(error.problem)")
    }
    guard !rows.isEmpty else {
      throw ToolError("\(path): the conformance matrix has a header but no rows")
    }
    return rows
  }
}
