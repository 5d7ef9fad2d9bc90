import ObservationReports
import ObservationWorkloads

/// One chart of a report as a standalone SVG file, to show where an image goes (a README):
/// the cost of one workload in one pattern against *n*, drawn as the report page draws it,
/// with its title, unit, legend and run inside the file.
///
/// The file loads nothing and needs no style sheet: shown through an `<img>` element it reads
/// as it does opened alone. Every text from the report is escaped; the file is well-formed XML.
///
/// ```swift
/// let report = try Report.read("Results/2026-11-23_e4202d2fd5eb_vm.csv")
/// let charts = try SVGChart.draw(
///   SVGChart.readme, of: report, source: "the report", generator: "observatory report")
/// for chart in charts {
///   // The command line writes each to Results/charts/<chart.selection.fileName>.
///   print(chart.selection.fileName, chart.svg.utf8.count)
/// }
/// ```
package struct SVGChart: Sendable {
  /// Which chart a file shows: the cost of `workload` in `pattern`, against *n* (against the
  /// threads, at the largest size measured, for a contended workload).
  package struct Selection: Hashable, Sendable, CustomStringConvertible {
    /// The workload.
    package var workload: Workload
    /// The workload's pattern (`single` for a workload without variants).
    package var pattern: WorkloadPattern

    /// The chart of `workload` in `pattern`.
    ///
    /// - Complexity: O(1).
    package init(_ workload: Workload, pattern: WorkloadPattern = .single) {
      self.workload = workload
      self.pattern = pattern
    }

    /// The file's name: the workload and its pattern, `notify.svg`, `cancel-random.svg`.
    package var fileName: String {
      workload.rawValue + (pattern == .single ? "" : "-" + pattern.rawValue) + ".svg"
    }

    /// The chart as the page names it: `notify`, `cancel (random)`.
    package var description: String {
      workload.rawValue + (pattern == .single ? "" : " (\(pattern.rawValue))")
    }
  }

  /// The charts the project's README shows: how delivering a write, subscribing and cancelling
  /// grow with *n*. Cancelling is drawn in random order: oldest-first or newest-first order
  /// lets a backend that keeps its observers in order find each one at an end (an array
  /// cancels newest-first cheaply), so only a seeded shuffle separates a cancellation that
  /// searches or shifts (O(*n*) each) from one that does not (O(1)).
  package static let readme = [
    Selection(.notify), Selection(.subscribe), Selection(.cancel, pattern: .random),
  ]

  /// The charts the README shows when the report has them: how the cost of a write to a shared
  /// subject grows with the threads writing to it.
  package static let readmeWhenMeasured = [Selection(.contendedNotify)]

  /// The selections of ``readme``, then those of ``readmeWhenMeasured`` that `report` has a
  /// measured cell of.
  ///
  /// - Complexity: O(*r*) for *r* results.
  package static func readme(of report: Report) -> [Selection] {
    readme
      + readmeWhenMeasured.filter { selection in
        report.results.contains {
          $0.cell.workload == selection.workload && $0.cell.pattern == selection.pattern
            && $0.status.isMeasured
        }
      }
  }

  /// The chart drawn.
  package var selection: Selection
  /// The SVG document.
  package var svg: String

  /// The charts `selections` of `report`, read from `source`, in the order given, each naming
  /// `generator` as the command that drew it.
  ///
  /// Each is the page's cost chart of the workload and pattern against *n*: in time if the
  /// report measures time, else in instructions; of the first allocator the report has if it
  /// has several (the chart's title then names it). Colours are the page's: a backend has the
  /// same colour in every chart and in the page.
  ///
  /// - Throws: ``ReportPageError`` in one line naming `source` and every selection the report has no
  ///   measured cost of (no cell, or none that was measured).
  /// - Complexity: O(*r* log *r*) for *r* results, and the size of the files.
  package static func draw(
    _ selections: [Selection], of report: Report, source: String, generator: String
  ) throws -> [SVGChart] {
    let charts = ChartSection.sections(of: report).flatMap(\.charts).filter {
      $0.quantity == .cost && $0.dimension == ($0.key.workload.isContended ? .threads : .size)
        && !$0.drawnLines.isEmpty
    }
    var drawn: [SVGChart] = []
    var missing: [Selection] = []
    for selection in selections {
      // Against threads, the largest size: where a write holds a lock the longest.
      let candidates = charts.filter {
        $0.key.workload == selection.workload && $0.key.pattern == selection.pattern
      }
      .sorted { $0.key.fixed > $1.key.fixed }
      guard let chart = candidates.first(where: { $0.key.metric == .time }) ?? candidates.first
      else {
        missing.append(selection)
        continue
      }
      drawn.append(
        SVGChart(
          selection: selection, svg: StandaloneChartSVG.document(chart, generator: generator)))
    }
    guard missing.isEmpty else {
      throw ReportPageError(
        "\(source): no measured cost of "
          + missing.map(\.description).joined(separator: " or ")
          + " to chart (the charts are "
          + selections.map(\.description).joined(separator: ", ") + ")")
    }
    return drawn
  }
}
