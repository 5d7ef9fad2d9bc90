import ArrayBackend
import ObservationCore
import ObservatoryBuiltInRows
import Testing

@testable import ObservationHarness
@testable import ObservatoryCommandLine

/// The rows a tool is made of: names that clash or do not make a file name are refused.
@Suite("The tool's rows")
struct ToolRowsTests {
  @Test("The tool refuses a backend name that clashes or is not filename-safe")
  func badNames() {
    let lossy = MeasuredBackend(NamedBackend(name: "lossy"))
    #expect(ObservatoryTool.problem(with: MeasuredBackend.builtIns + [lossy]) == nil)
    #expect(
      ObservatoryTool.problem(with: [lossy, lossy])?.contains("'lossy' is used twice") == true)
    #expect(
      ObservatoryTool.problem(with: MeasuredBackend.builtIns + MeasuredBackend.builtIns) != nil)
    #expect(ObservatoryTool.problem(with: MeasuredBackend.references) != nil)
    #expect(
      ObservatoryTool.problem(with: [MeasuredBackend(NamedBackend(name: "My Backend"))]) != nil)
    #expect(ObservatoryTool.problem(with: [MeasuredBackend(NamedBackend(name: ""))]) != nil)
  }
}

/// A backend whose name is whatever the test gives.
struct NamedBackend: ObservationBackend {
  var name: String
  var capabilities: BackendCapabilities { ArrayStrategy().capabilities }
  func makeSubject(initialValue: Int) -> ArrayObservers<Int> {
    ArrayStrategy().makeSubject(initialValue: initialValue)
  }
}
