import Testing

@testable import ObservationReports

@Suite("Numbers as a person reads them")
struct ReadableNumberTests {
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

  @Test(
    "The ends of the Double range print in a dozen characters, never trap",
    arguments: [
      (1.7976931348623157e308, "1.80e+299 s", "×1.8e+308"),
      (Double.leastNonzeroMagnitude, "4.94e-324 ns", "×4.94e-324"),
      (-1.7976931348623157e308, "-1.80e+299 s", "×-1.8e+308"), (1e300, "1.00e+291 s", "×1e+300"),
      (412_000e9, "412000 s", "×4.12e+14"), (0.0000412, "4.12e-05 ns", "×4.12e-05"),
    ])
  func extremes(_ value: Double, _ time: String, _ ratio: String) {
    #expect(readableNanoseconds(value) == time)
    #expect(readableRatio(value) == ratio)
    #expect(readableCount(value).count <= 20)
    #expect(readableChange(ofRatio: value).count <= 12)
  }

  @Test("Percentages: one decimal, scientific past a million percent")
  func percentages() {
    #expect(readableChange(ofRatio: 1.125) == "+12.5%")
    #expect(readableChange(ofRatio: 0.97) == "-3.0%")
    #expect(readablePercent(4.25) == "4.2%" || readablePercent(4.25) == "4.3%")
    #expect(readableChange(ofRatio: 1e300) == "+1.00e+302%")
    #expect(readableCount(1e300) == "1.00e+300")
    #expect(readableCount(1234.5) == "1234.5")
  }

  @Test("A ratio that is not a number prints nothing")
  func emptyRatio() {
    #expect(readableRatio(nil) == "")
    #expect(readableRatio(.nan) == "")
  }
}
