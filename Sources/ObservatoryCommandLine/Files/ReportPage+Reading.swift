import Foundation
import ObservationConformance
import ObservationReportPage
import ObservationReports

extension HTMLReport {
  /// Reads the report at `report`, and the baseline and conformance matrix if given, and
  /// compares the report with the baseline as `compare` does (`threshold` as a fraction;
  /// `compare`'s default for the report's metric if `nil`). The page names `generator` as the
  /// command that wrote it.
  ///
  /// - Throws: ``ToolError`` in one line naming the file, the line and the problem: a report
  ///   or matrix that cannot be read or is malformed, or a baseline that shares no cell with
  ///   the report or measures another metric.
  /// - Complexity: O(*b*) for *b* bytes read, and the comparison's cost.
  static func read(
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
        page.baseline = try Baseline(
          path: baselinePath, base: try Report.read(baselinePath), comparedWith: report,
          threshold: threshold)
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

  /// The rows of the conformance matrix at `path`, read with `ConformanceMatrixCSV`.
  private static func readConformance(_ path: String) throws -> [ConformanceMatrixRow] {
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
    let rows: [ConformanceMatrixRow]
    do { rows = try ConformanceMatrixCSV.rows(fromCSV: text) } catch let error
      as ConformanceMatrixCSV.Error
    {
      throw ToolError("\(path):\(error.line): \(error.problem)")
    }
    guard !rows.isEmpty else {
      throw ToolError("\(path): the conformance matrix has a header but no rows")
    }
    return rows
  }
}

extension TrendPage {
  /// Reads every report at `paths` and makes their trend page, following the main job and
  /// each run once (what was left out is in the page's `reports.notes`).
  ///
  /// - Throws: ``ToolError`` naming the file: a report that cannot be read or is malformed, a
  ///   size that no report measured, or a relative trend of a report without reference rows at
  ///   that size.
  /// - Complexity: O(*b*) for *b* bytes read.
  static func read(
    reports paths: [String], n: Int, relative: Bool, generator: String
  ) throws -> TrendPage {
    var read: [(path: String, report: Report)] = []
    for path in paths {
      do { read.append((path, try Report.read(path))) } catch let error as ReportError {
        throw ToolError(error.description)
      }
    }
    let reports = ReportSeries(read, isNarrowSweepName: DefaultReportName.isNarrowSweep)
    var page = TrendPage(reports: reports, n: n, relative: relative)
    page.generator = generator
    do { try page.validate() } catch let error as ReportPageError {
      throw ToolError(error.description + Self.advice(error.remedies))
    }
    return page
  }

  /// The options of `report` that would draw something, in words: ` (choose one with --n)`.
  ///
  /// - Complexity: O(1).
  static func advice(_ remedies: [ReportPageError.Remedy]) -> String {
    let words = remedies.map { remedy in
      switch remedy {
      case .anotherSize:
        remedies.count == 1 ? "choose one with --n" : "choose another --n"
      case .absoluteCosts: "draw it without --relative"
      }
    }
    return words.isEmpty ? "" : " (" + words.joined(separator: ", or ") + ")"
  }
}
