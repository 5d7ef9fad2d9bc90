import Foundation
import ObservationHarness
import ObservatoryBuiltInRows
import ObservatoryCommandLine
import Testing

/// `list`, from the built tool: the executable lists what the library's catalog holds, which
/// `ListTests` checks against what `run` accepts.
@Suite("list, from the built tool")
struct ListOutputTests {
  @Test("list --format json prints the catalog of the built-in rows, as the library writes it")
  func json() throws {
    let run = try BuiltTool.run(
      ["list", "--format", "json"], in: FileManager.default.temporaryDirectory)
    #expect(run.status == 0 && run.errors.isEmpty, "\(run.errors)")
    let catalog = try SweepCatalog(rows: MeasuredRows(backends: MeasuredBackend.builtIns)).json()
    #expect(run.output == catalog)
    #expect(run.output.contains("\"dense-handles\""))
  }

  @Test("list prints the same catalog as text")
  func text() throws {
    let run = try BuiltTool.run(["list"], in: FileManager.default.temporaryDirectory)
    #expect(run.status == 0 && run.errors.isEmpty, "\(run.errors)")
    #expect(run.output == SweepCatalog(rows: MeasuredRows(backends: MeasuredBackend.builtIns)).text)
  }
}
