import Foundation
import ObservationHarness
import ObservationReportPage
import ObservationReports
import ObservationWorkloads
import ReportFixtures

/// Reports to draw: small sweeps built as the harness builds them, written as CSV and read back.
package enum PageFixtures {
  package static let sizes = [16, 256, 4096]
  package static let backends = ["linked-list", "array"]
  package static let references = MeasuredBackend.references.map(\.name)
  package static let cancelPatterns: [WorkloadPattern] = [.fifo, .random]

  /// An instruction report of notify: `reference-c` (12 instructions per delivery) and `array`
  /// (96 and 97 in its two processes) at every size.
  package static func instructionReportPath() -> String {
    var cells: [(Cell, CellRunner.Result?)] = []
    for n in sizes {
      cells.append((Rows.plan("reference-c", n: n), .finished(Rows.counted([12]))))
      cells.append((Rows.plan("array", n: n), .finished(Rows.counted([96, 97]))))
    }
    return Rows.write(Rows.report(cells, metric: .instructions))
  }

  /// What a backend's outcome costs at one size: distinct per backend and size, rising with n.
  package static func samples(_ backend: Int, _ n: Int, base: Double) -> [Double] {
    let cost = base * Double(backend + 1) * (1 + Double(n) / 10_000)
    return [cost, cost * 1.01, cost * 1.02]
  }

  /// notify for the reference rows and both backends, `array` capped at the largest size;
  /// subscribe with retained bytes; cancel in two patterns; everything with allocations.
  package static func cells(
    backendNames: [String] = backends, note: String? = nil
  ) -> [(
    Cell, CellRunner.Result?
  )] {
    var cells: [(Cell, CellRunner.Result?)] = []
    for (index, reference) in references.enumerated() {
      for n in sizes {
        cells.append(
          (Rows.plan(reference, n: n), .finished(Rows.outcome(samples(index, n, base: 1)))))
      }
    }
    for (index, backend) in backendNames.enumerated() {
      for n in sizes {
        if index == 1 && n == sizes.last! {
          cells.append((Rows.plan(backend, n: n), .timedOut))
        } else if let note, index == 0, n == sizes.first! {
          cells.append((Rows.plan(backend, n: n), .failed(note)))
        } else {
          cells.append(
            (Rows.plan(backend, n: n), .finished(Rows.outcome(samples(index, n, base: 10)))))
        }
        var subscribe = Rows.outcome(samples(index, n, base: 50))
        subscribe.allocationsPerOperation = Double(index + 1)
        subscribe.retainedBytesPerObserver = Double(48 * (index + 1))
        cells.append((Rows.plan(backend, workload: .subscribe, n: n), .finished(subscribe)))
        for pattern in cancelPatterns {
          var cell = Rows.plan(backend, workload: .cancel, n: n)
          cell.pattern = pattern
          cells.append((cell, .finished(Rows.outcome(samples(index, n, base: 30)))))
        }
      }
    }
    return cells
  }

  /// The fixture's report, written to a temporary file: its path.
  package static func reportPath(backendNames: [String] = backends, note: String? = nil) -> String {
    Rows.write(Rows.report(cells(backendNames: backendNames, note: note)))
  }

  /// A conformance matrix's CSV, as written before its `traits` column (the page reads both):
  /// every outcome kind appears, rules × backends complete.
  package static func matrixCSV(
    rules: [(id: String, title: String)], backends: [String], details: String = "what happened"
  ) -> String {
    var lines = [ConformanceMatrixCSV.headerWithoutTraits]
    let kinds = ConformanceOutcome.allCases
    var index = 0
    for backend in backends {
      for rule in rules {
        let kind = kinds[index % kinds.count]
        index += 1
        lines.append(
          ["1.1.0", rule.id, "GRP", "REQUIRED", rule.title, backend, kind.rawValue, details]
            .map { field in
              field.contains(where: { ",\"\n".contains($0) })
                ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
            }.joined(separator: ","))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  package static func page(_ page: HTMLReport) throws -> HTMLTree { try HTMLTree(page.html) }

  /// The page `observatory report` draws of the report at `path`: with the report at
  /// `baseline` compared as the page compares it (every machine allowed, the metric's default
  /// threshold), and the conformance matrix at `conformance`. Built from the values read, so
  /// that the page's tests need no command line (whose `HTMLReport.read` adds the refusals).
  package static func htmlReport(
    _ path: String, baseline: String? = nil, conformance: String? = nil
  ) throws -> HTMLReport {
    let report = try Report.read(path)
    var page = HTMLReport(report: report, source: path)
    page.generator = "observatory report"
    if let baseline {
      page.baseline = try HTMLReport.Baseline(
        path: baseline, base: try Report.read(baseline), comparedWith: report)
    }
    if let conformance {
      page.conformance = HTMLReport.Conformance(
        path: conformance,
        rows: try ConformanceMatrixCSV.rows(
          fromCSV: try String(contentsOfFile: conformance, encoding: .utf8)))
    }
    return page
  }

  /// The README's charts of the report at `path`, as `report --charts` draws them.
  package static func readmeCharts(_ path: String) throws -> [SVGChart] {
    try SVGChart.draw(
      SVGChart.readme, of: try Report.read(path), source: path,
      generator: "observatory report --charts")
  }
}
