import Testing

@testable import ObservationReports

@Suite("Times as a person reads them")
struct ReadableTimeTests {
  @Test(
    "Three significant digits in the unit that fits, chosen after rounding",
    arguments: [
      (4.373, "4.37 ns"), (25.029, "25.0 ns"), (722.379, "722 ns"), (999.6, "1.00 µs"),
      (3519.081, "3.52 µs"), (53627.15, "53.6 µs"), (187_204, "187 µs"),
      (1_834_000, "1.83 ms"), (2_100_000_000, "2.10 s"), (0.4123, "0.412 ns"), (0, "0 ns"),
      (11, "11.0 ns"), (1000, "1.00 µs"),
    ])
  func readable(_ nanoseconds: Double, _ text: String) {
    #expect(readableNanoseconds(nanoseconds) == text)
  }

  @Test("Nothing measured, or not a number, prints nothing")
  func empty() {
    #expect(readableNanoseconds(nil) == "")
    #expect(readableNanoseconds(.nan) == "")
    #expect(readableNanoseconds(.infinity) == "")
  }

  @Test(
    "Ratios: three significant digits, no trailing zeros",
    arguments: [
      (1.0, "×1"), (1.324, "×1.32"), (1.5, "×1.5"), (12.644, "×12.6"), (298.048, "×298"),
      (1567.134, "×1570"), (2517.415, "×2520"), (0.786, "×0.786"), (9.996, "×10"),
    ])
  func ratio(_ ratio: Double, _ text: String) {
    #expect(readableRatio(ratio) == text)
  }

  @Test("A ratio that is not a number prints nothing")
  func emptyRatio() {
    #expect(readableRatio(nil) == "")
    #expect(readableRatio(.nan) == "")
  }
}
