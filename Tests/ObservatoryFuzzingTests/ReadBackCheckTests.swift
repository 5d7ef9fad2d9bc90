import Testing

@testable import ObservatoryFuzzing

/// The numbers target's own checks can fail: a text that is not the value's, to its printed
/// precision, is a finding.
@Suite("The read-back checks of the numbers target")
struct ReadBackCheckTests {
  @Test(
    "A text off by more than half its last digit, in another unit or sign, is a finding",
    arguments: [
      ("4.38 ns", 4.373), ("4.37 µs", 4.373), ("-4.37 ns", 4.373), ("43.7 ns", 4.373),
      ("1.79e+308 s", 1.7976931348623157e308), ("0 ns", Double.leastNonzeroMagnitude),
      ("4.37", 4.373),
    ])
  func wrongTextIsAFinding(_ text: String, _ value: Double) {
    #expect(throws: FuzzFinding.self) {
      try FuzzTarget.expect(
        text, readsBackAs: value, name: "test", units: FuzzTarget.timeUnits)
    }
  }

  @Test(
    "The text a value rounds to reads back",
    arguments: [
      ("4.37 ns", 4.373), ("1.00 µs", 999.6), ("1.80e+299 s", 1.7976931348623157e308),
      ("4.94e-324 ns", Double.leastNonzeroMagnitude), ("0.00412 ns", 0.004123),
    ])
  func rightTextReadsBack(_ text: String, _ value: Double) {
    #expect(throws: Never.self) {
      try FuzzTarget.expect(
        text, readsBackAs: value, name: "test", units: FuzzTarget.timeUnits)
    }
  }
}
