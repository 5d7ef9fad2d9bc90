import Foundation
import ObservationReports
import ObservationWorkloads

extension HTMLReport {
  /// The page: a complete HTML document that loads nothing.
  ///
  /// Its parts, in order: the run's metadata; a list of contents; the comparison with the
  /// baseline, regressions first; a section per workload with its charts and their tables;
  /// the conformance matrix.
  ///
  /// - Complexity: O(*r* log *r* + *m*) for *r* results and *m* rows of the matrix, and the
  ///   size of the comparison.
  package var html: String {
    let sections = ChartSection.sections(of: report)
    let script = ReportPageScript.source
    let commits = Set(report.results.map(\.environment.commit)).sorted()
    var contents: [(String, String)] = []
    if baseline != nil { contents.append(("comparison", "Against the baseline")) }
    contents += sections.map { ($0.identifier, $0.workload.rawValue) }
    if conformance != nil { contents.append(("conformance", "Conformance")) }

    var page = [
      "<!DOCTYPE html>",
      "<html lang=\"en\">",
    ]
    page += PageHead.lines(
      title: "Observatory report, commit " + commits.joined(separator: ", "), generator: generator)
    page += [
      "<body>",
      RunMetadata.render(report, source: source),
      "<nav><ul>"
        + contents.map { "<li><a href=\"#\($0.0)\">\(HTMLText.escaped($0.1))</a></li>" }
        .joined() + "</ul></nav>",
      "<main>",
    ]
    if let baseline {
      page.append(ComparisonSection.render(baseline.comparison, baseline: baseline.path))
    }
    for section in sections {
      page.append(
        "<section class=\"workload\" id=\"\(section.identifier)\""
          + " data-workload=\"\(section.workload.rawValue)\">")
      page.append("<h2>\(section.workload.rawValue)</h2>")
      page.append(
        "<p class=\"workload-summary\">\(HTMLText.escaped(section.workload.summary))</p>"
      )
      page += section.charts.map(ChartFigure.render)
      page.append("</section>")
    }
    if let conformance {
      page.append(ConformanceSection.render(conformance.rows, source: conformance.path))
    }
    page += [
      "</main>",
      "<footer>Written by <code>\(HTMLText.escaped(generator))</code>. Every number on this page is read"
        + " from the files named above.</footer>",
      "<script>" + script + "</script>",
      "</body>",
      "</html>",
    ]
    return page.joined(separator: "\n") + "\n"
  }
}
