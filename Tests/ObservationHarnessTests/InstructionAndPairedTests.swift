import ArrayBackend
import Foundation
import ObservationWorkloads
import ReportFixtures
import SweepFixtures
import Testing

@testable import ObservationHarness
@testable import ObservationReports

@Suite("Instruction counts")
struct InstructionCountTests {
  @Test("callgrind's totals are read by event name, with and without cache simulation")
  func parse() throws {
    let plain =
      "version: 1\ncmd: x\nevents: Ir\nfn=(1) main\n5 100\nsummary: 424275530\ntotals: 424275530\n"
    #expect(try InstructionCounter.parse(plain) == .init(instructions: 424_275_530))
    let cached = """
      events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
      totals: 1000 300 200 5 40 10 2 7 3
      """
    let counts = try InstructionCounter.parse(cached)
    #expect(counts == .init(instructions: 1000, d1Misses: 50, llMisses: 12))
  }

  @Test("An output without totals is an error, not a zero")
  func missingTotals() {
    #expect(throws: InstructionCounter.ParseError.self) {
      try InstructionCounter.parse("events: Ir\nfn=(1) main\n5 100\n")
    }
    #expect(throws: InstructionCounter.ParseError.self) { try InstructionCounter.parse("") }
  }

  @Test("Every thread but the main one is counted: the cell's, and any its backend starts")
  func threads() throws {
    let output = """
      events: Ir D1mr D1mw ILmr DLmr DLmw
      totals: %d 1 2 3 4 5
      """
    func thread(_ number: Int, _ instructions: Int) -> (thread: Int, text: String) {
      (number, output.replacingOccurrences(of: "%d", with: String(instructions)))
    }
    let total = try InstructionCounter.total(of: [
      thread(1, 1_500), thread(2, 204_361), thread(3, 1_000),
    ])
    #expect(total == .init(instructions: 205_361, d1Misses: 6, llMisses: 24))
    // The main thread alone counted nothing the cell did.
    #expect(throws: InstructionCounter.ParseError.self) {
      try InstructionCounter.total(of: [thread(1, 1_500)])
    }
  }

  @Test("Callgrind's file for each thread is read, and all of them are removed")
  func threadFiles() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "observatory-threads-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("cell.callgrind")
    // Callgrind leaves the file it was named empty and writes one per thread beside it.
    try Data().write(to: file)
    for (suffix, count) in [("-01", 7), ("-02", 100), ("-03", 20)] {
      try Data("events: Ir\ntotals: \(count)\n".utf8).write(
        to: directory.appendingPathComponent("cell.callgrind" + suffix))
    }
    try Data("events: Ir\ntotals: 5\n".utf8).write(
      to: directory.appendingPathComponent("other.callgrind-02"))
    #expect(try InstructionCounter.read(file) == .init(instructions: 120))
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(left == ["other.callgrind-02"])
  }

  @Test("A counted cell's thread never gets a block its process freed before the cell")
  func freshHeap() throws {
    let size = 200
    let freed = try #require(malloc(size))
    free(freed)
    let taken = try #require(MeasuringThread.run { malloc(size) } ?? nil)
    defer { free(taken) }
    #expect(taken != freed)
  }

  @Test("A counted cell runs on its own thread and passes its self-check outside callgrind")
  func countedCell() throws {
    let outcome = try #require(
      CellExecution.run(
        CellRequest(
          backend: "array", workload: .subscribe, n: 16, repetitions: 1, budget: 10, seed: 1,
          scale: 1.0 / 16, metric: .instructions),
        among: [MeasuredBackend(ArrayStrategy())]))
    #expect(outcome.problem == nil)
    #expect(outcome.measuredOperations == 16 * 16)
  }

  @Test("An instructions report round-trips: the count, the spread of several processes")
  func report() throws {
    let text = Rows.report(
      [
        (Rows.plan("linked-list"), .finished(Rows.counted([344.592]))),
        (Rows.plan("swift-observations"), .finished(Rows.counted([100, 110, 105]))),
      ], metric: .instructions)
    let rows = try ReportReader.read(Rows.write(text))
    #expect(rows.map(\.metric) == [.instructions, .instructions])
    #expect(rows[0].instructionsPerOperation == 344.592 && rows[0].instructionsSpread == nil)
    #expect(rows[0].nanoseconds == nil)
    #expect(rows[1].instructionsPerOperation == 105)
    #expect(rows[1].instructionsSpread.map(csvNumber) == csvNumber(10.0 / 105))
    #expect(Report(rows).csv == text)
  }
}

@Suite("ab: ratio intervals")
struct PairedTests {
  @Test("Mann-Whitney critical counts match the published tables")
  func criticalCounts() {
    // Two-sided 5%: U <= 13 rejects for 8 and 8, U <= 3 for 5 and 6 (Mann-Whitney tables);
    // the count cut from each end is one more.
    #expect(RatioEstimate.criticalCount(m: 8, n: 8, tail: 0.025) == 14)
    #expect(RatioEstimate.criticalCount(m: 5, n: 6, tail: 0.025) == 4)
    // Two-sided 1% for 8 and 8: U <= 7.
    #expect(RatioEstimate.criticalCount(m: 8, n: 8, tail: 0.005) == 8)
    // Three a side cannot reach 95%.
    #expect(RatioEstimate.criticalCount(m: 3, n: 3, tail: 0.025) == nil)
    // The normal approximation (beyond 2,500 pairs: 1250 - 1.96 x 145.05) takes over from
    // the exact count without a jump.
    let exact = RatioEstimate.criticalCount(m: 50, n: 50, tail: 0.025)!
    let approximate = RatioEstimate.criticalCount(m: 51, n: 50, tail: 0.025)!
    #expect(abs(exact - 966) <= 2, "\(exact)")
    #expect(approximate > exact && approximate - exact < 40, "\(approximate)")
  }

  @Test("Samples of one distribution give an interval around 1: unchanged")
  func sameBuild() throws {
    let base: [Double] = [100, 103, 98, 101, 99, 102, 100, 97]
    let candidate: [Double] = [101, 99, 100, 102, 98, 103, 97, 100]
    let estimate = try #require(RatioEstimate(base: base, candidate: candidate))
    #expect(estimate.lower < 1 && estimate.upper > 1)
    #expect(PairedRunner.verdict(estimate, threshold: 0.05) == .unchanged)
  }

  @Test("A 10% slower candidate is a regression at a 5% threshold")
  func slower() throws {
    let base: [Double] = [100, 103, 98, 101, 99, 102, 100, 97]
    let candidate = base.map { $0 * 1.1 }
    let estimate = try #require(RatioEstimate(base: base, candidate: candidate))
    #expect(abs(estimate.ratio - 1.1) < 1e-9)
    #expect(PairedRunner.verdict(estimate, threshold: 0.05) == .regression)
    #expect(PairedRunner.verdict(estimate, threshold: 0.2) == .unchanged)
  }

  @Test("One wild process moves the estimate by a rank, not by its size")
  func robust() throws {
    let base: [Double] = [100, 103, 98, 101, 99, 102, 100, 97]
    var candidate: [Double] = [101, 99, 100, 102, 98, 103, 97, 100]
    candidate[3] = 250
    let estimate = try #require(RatioEstimate(base: base, candidate: candidate))
    #expect(estimate.ratio < 1.02)
    #expect(PairedRunner.verdict(estimate, threshold: 0.05) != .regression)
  }

  @Test("Wide samples give a wide interval: inconclusive, not a verdict")
  func noisy() throws {
    let base: [Double] = [60, 140, 80, 200, 100, 90, 170, 70]
    let candidate = base.map { $0 * 1.15 }.reversed().map { $0 }
    let estimate = try #require(RatioEstimate(base: base, candidate: candidate))
    #expect(PairedRunner.verdict(estimate, threshold: 0.05) == .inconclusive)
  }

  @Test("Wilcoxon signed-rank critical counts match the published tables")
  func signedRankCounts() {
    // Two-sided 5%: W <= 3 rejects for 8 pairs, W <= 52 for 20, W <= 0 for 6; the count cut
    // from each end is one more. Five pairs cannot reach 95% (the least tail is 1/32).
    #expect(RatioEstimate.signedRankCriticalCount(n: 8, tail: 0.025) == 4)
    #expect(RatioEstimate.signedRankCriticalCount(n: 20, tail: 0.025) == 53)
    #expect(RatioEstimate.signedRankCriticalCount(n: 6, tail: 0.025) == 1)
    #expect(RatioEstimate.signedRankCriticalCount(n: 5, tail: 0.025) == nil)
    // Two-sided 1% for 12 pairs: W <= 7.
    #expect(RatioEstimate.signedRankCriticalCount(n: 12, tail: 0.005) == 8)
  }

  @Test("Paired ratios: centred on the change, robust to one spoilt pair, wide when noisy")
  func pairedRatios() throws {
    let spread: [Double] = [0.98, 1.01, 1.0, 0.99, 1.02, 1.0, 0.995, 1.005]
    let same = try #require(RatioEstimate(pairedRatios: spread))
    #expect(same.lower < 1 && same.upper > 1)
    #expect(PairedRunner.verdict(same, threshold: 0.05) == .unchanged)

    let slower = try #require(RatioEstimate(pairedRatios: spread.map { $0 * 1.1 }))
    #expect(abs(slower.ratio - 1.1) < 0.005)
    #expect(PairedRunner.verdict(slower, threshold: 0.05) == .regression)

    var spoilt = spread
    spoilt[2] = 2.5
    let robust = try #require(RatioEstimate(pairedRatios: spoilt))
    #expect(robust.ratio < 1.02)
    #expect(PairedRunner.verdict(robust, threshold: 0.05) != .regression)

    let wide = try #require(
      RatioEstimate(pairedRatios: [0.8, 1.3, 0.95, 1.4, 1.1, 0.9, 1.35, 1.2]))
    #expect(PairedRunner.verdict(wide, threshold: 0.05) == .inconclusive)

    #expect(RatioEstimate(pairedRatios: [1, 1, 1, 1, 1]) == nil)
    #expect(RatioEstimate(pairedRatios: [1, 1, 1, 1, 1, 1, 1, .nan]) == nil)
  }

  @Test("ab concludes as compare: a regression whatever else, inconclusive cells without one")
  func pairedConclusion() throws {
    func report(_ verdicts: [Comparison.Verdict]) -> PairedReport {
      let cells = verdicts.enumerated().map { index, verdict in
        var cell = PairedRunner.Entry(cell: Rows.plan(n: 16 << index))
        cell.verdict = verdict
        return cell
      }
      return PairedReport(cells: cells, threshold: 0.05, confidence: 0.95)
    }
    // A cell not measured (calibration over budget) is reported, not concluded on.
    let unchanged = report([.unchanged, .notComparable, .improvement])
    #expect(unchanged.conclusion == .noRegression)
    let inconclusive = report([.unchanged, .inconclusive, .inconclusive])
    #expect(inconclusive.conclusion == .inconclusive && inconclusive.inconclusive.count == 2)
    #expect(inconclusive.summary.contains("2 cell(s) could not be told from noise"))
    let regressed = report([.inconclusive, .regression, .unchanged])
    #expect(regressed.conclusion == .regression)
  }
}
