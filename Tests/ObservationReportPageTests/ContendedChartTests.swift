import ObservationWorkloads
import ReportFixtures
import SweepFixtures
import Testing

@testable import ObservationHarness
@testable import ObservationReportPage
@testable import ObservationReports

/// A contended workload's charts: cost against threads at each size.
@Suite("report: contended workloads")
struct ContendedChartTests {
  @Test("The page draws a contended workload against threads at each size, not against n")
  func chart() throws {
    var cells: [(Cell, CellRunner.Result?)] = []
    for threads in [1, 2, 4] {
      for n in [16, 1024] {
        cells.append(
          (
            Cell(
              allocator: .jemalloc, backend: "dense-synchronized", workload: .contendedChurn,
              n: n, threads: threads), .finished(Rows.outcome([10, 11, 12]))
          ))
        cells.append(
          (
            Cell(
              allocator: .jemalloc, backend: "linked-list", workload: .contendedChurn,
              n: n, threads: threads), .notApplicable("not thread-safe")
          ))
      }
    }
    let report = Report(try ReportReader.read(Rows.write(Rows.report(cells))))
    let sections = ChartSection.sections(of: report)
    let charts = try #require(sections.first { $0.workload == .contendedChurn }).charts
    let cost = charts.filter { $0.quantity == .cost }
    #expect(cost.map(\.dimension) == [.threads, .threads])
    #expect(cost.map(\.key.fixed) == [16, 1024])
    #expect(cost.allSatisfy { $0.positions == [1, 2, 4] })
    #expect(cost.allSatisfy { $0.lines.map(\.backend) == ["dense-synchronized"] })
    #expect(cost[0].title.contains("contended-churn (n = 16) by threads"), "\(cost[0].title)")
  }
}
