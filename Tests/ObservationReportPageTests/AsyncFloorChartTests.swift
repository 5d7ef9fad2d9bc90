import ObservationWorkloads
import ReportFixtures
import SweepFixtures
import Testing

@testable import ObservationReportPage
@testable import ObservationReports

/// The report page draws the asynchronous floor as a reference row of its own colour, and its
/// legend says what it is.
@Suite("Asynchronous floor in the charts")
struct AsyncFloorChartTests {
  @Test("The floor is a dashed reference line in its own colour, named in the legend")
  func drawnAsTheAsyncFloor() throws {
    let report = try Report.read(PageFixtures.reportPath())
    let sections = ChartSection.sections(of: report)
    let notify = try #require(sections.first { $0.workload == .notify }?.charts.first)
    let floor = try #require(notify.lines.first { $0.backend == "reference-async-tasks" })
    #expect(floor.isReference)
    #expect(floor.colorClass == "r3")
    #expect(floor.remark == "asynchronous", "\(floor.remark)")
    #expect(StandaloneChartSVG.label(floor) == "reference-async-tasks (floor, asynchronous)")
    #expect(ChartFigure.caption(notify).contains("against reference-async-tasks"))
    // The other reference rows keep the colours of their places in ReferenceRow.
    #expect(
      notify.lines.filter(\.isReference).map(\.colorClass) == ["r0", "r1", "r2", "r3"])
    #expect(Set(ChartStyle.referenceColors).count == ReferenceRow.allCases.count)
  }
}
