import ArrayBackend
import ObservationCore
import ObservatoryBuiltInRows
import Testing

@testable import ObservationHarness
@testable import ObservatoryCommandLine

/// The rows a tool is made of: names that clash or do not make a file name are refused.
@Suite("The tool's rows")
struct ToolRowsTests {
  /// What the tool says is wrong with a tool of `backends`, or `nil`.
  static func problem(_ backends: [MeasuredBackend]) -> String? {
    ObservatoryTool.problem(with: MeasuredRows(backends: backends))
  }

  @Test("The tool refuses a backend name that clashes or is not filename-safe")
  func badNames() {
    let lossy = MeasuredBackend(NamedBackend(name: "lossy"))
    #expect(Self.problem(MeasuredBackend.builtIns + [lossy]) == nil)
    #expect(Self.problem([lossy, lossy])?.contains("'lossy' is used twice") == true)
    #expect(Self.problem(MeasuredBackend.builtIns + MeasuredBackend.builtIns) != nil)
    #expect(Self.problem(MeasuredBackend.references) != nil)
    #expect(Self.problem([MeasuredBackend(NamedBackend(name: "My Backend"))]) != nil)
    #expect(Self.problem([MeasuredBackend(NamedBackend(name: ""))]) != nil)
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
