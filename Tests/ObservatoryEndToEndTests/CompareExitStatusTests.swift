import Foundation
import ReportFixtures
import SweepFixtures
import Testing

/// `compare`'s exit statuses, from the built tool: what a CI step gating on it sees.
@Suite("compare, from the built tool")
struct CompareExitStatusTests {
  @Test("The built tool exits 4 on inconclusive cells, saying why; 0 when accepted; 2 on both")
  func inconclusiveProcess() throws {
    let (base, weather, regressed) = ComparedReports.inconclusiveReports()
    let directory = FileManager.default.temporaryDirectory
    let inconclusive = try BuiltTool.run(["compare", base, weather], in: directory)
    #expect(inconclusive.status == 4 && !inconclusive.signalled, "\(inconclusive.errors)")
    #expect(inconclusive.output.contains("could not be told from noise"))
    #expect(inconclusive.errors.contains("exit status 4"), "\(inconclusive.errors)")
    #expect(inconclusive.errors.contains("--inconclusive-ok"), "\(inconclusive.errors)")
    let accepted = try BuiltTool.run(
      ["compare", base, weather, "--inconclusive-ok", "--format", "json"], in: directory)
    #expect(accepted.status == 0 && accepted.errors.isEmpty, "\(accepted.errors)")
    let json = try JSONSerialization.jsonObject(with: Data(accepted.output.utf8)) as? [String: Any]
    #expect(json?["conclusion"] as? String == "inconclusive", "\(accepted.output)")
    #expect(json?["inconclusive"] as? Int == 1 && json?["regressions"] as? Int == 0)
    let both = try BuiltTool.run(["compare", base, regressed], in: directory)
    #expect(both.status == 2 && both.errors.isEmpty, "\(both.errors)")
  }
}
