import ReportFixtures
import Testing

@testable import ObservationReports

/// The judgement `compare` prints: each cell's verdict and reason, each backend's move, and
/// the run's conclusion, from two reports (the command and its formats are the command
/// line's `CompareTests`).
@Suite("Comparison")
struct ComparisonTests {
  /// What a comparison says, as its text table holds it: each cell's base, candidate, change
  /// and reason, then the summary.
  static func said(_ comparison: Comparison) -> String {
    comparison.cells.map {
      [
        $0.key, comparison.describe($0.base), comparison.describe($0.candidate),
        comparison.change($0), $0.verdict.rawValue, $0.reason,
      ].joined(separator: " ")
    }.joined(separator: "\n") + "\n" + comparison.summary
  }

  static func verdicts(_ comparison: Comparison) -> [String: Comparison.Verdict] {
    Dictionary(
      uniqueKeysWithValues: comparison.cells.map {
        ($0.base.cell.backend + "/" + String($0.base.cell.n), $0.verdict)
      })
  }

  @Test("Two runs of the same build, with ordinary noise, are not a regression")
  func sameBuild() throws {
    let comparison = try ComparedReports.compare(
      ComparedReports.report(),
      ComparedReports.report(samples: [101, 99, 104, 100, 102], jitter: false))
    #expect(comparison.regressions.isEmpty)
    #expect(comparison.cells.count == (4 + ReferenceRow.allCases.count) * 12)
  }

  @Test("A backend that got 30% slower at every size regresses, and nothing else does")
  func injectedRegression() throws {
    let comparison = try ComparedReports.compare(
      ComparedReports.report(), ComparedReports.report(factors: ["array": 1.3]))
    #expect(
      comparison.regressions.map { $0.base.cell.backend } == Array(repeating: "array", count: 12))
    #expect(
      comparison.cells.filter { $0.base.cell.backend != "array" }.allSatisfy {
        $0.verdict == .unchanged
      })
    #expect(Self.said(comparison).contains("+30.0%"))
  }

  @Test(
    "A burst that slowed most repetitions of a backend is not a regression; its fastest moving is")
  func burstSeenThrough() throws {
    // Every array cell's median 60% slower (three of five repetitions in a busy moment), its
    // fastest repetition not: times are compared by the fastest repetition.
    let burst = try ComparedReports.compare(
      ComparedReports.report(),
      ComparedReports.report(backendSamples: ["array": [100, 160, 161, 162, 163]]))
    #expect(burst.regressions.isEmpty)
    #expect(burst.cells.allSatisfy { $0.verdict == .unchanged }, "\(Self.said(burst))")
    #expect(Self.said(burst).contains("fastest repetition"))
    // The same cells with the fastest repetition 30% slower too: a regression.
    let moved = try ComparedReports.compare(
      ComparedReports.report(),
      ComparedReports.report(backendSamples: ["array": [130, 160, 161, 162, 163]]))
    #expect(Set(moved.regressions.map(\.base.cell.backend)) == ["array"])
  }

  @Test("A change below the threshold is not a regression")
  func belowThreshold() throws {
    let comparison = try ComparedReports.compare(
      ComparedReports.report(), ComparedReports.report(factors: ["array": 1.04]))
    #expect(comparison.cells.allSatisfy { $0.verdict == .unchanged })
  }

  @Test("Runs whose cells scatter past 28% judge nothing: a backend that moved is inconclusive")
  func busyMachine() throws {
    // Every cell of the candidate moved by up to a factor of 2 either way, array by 1.3 more.
    var scattered: [String: Double] = [:]
    for (b, backend) in ComparedReports.backends.enumerated() {
      for (s, n) in ComparedReports.sizes.enumerated() {
        scattered["\(backend)/\(n)"] = [0.5, 0.7, 1.4, 2.0][(b + s) % 4]
      }
    }
    let comparison = try ComparedReports.compare(
      ComparedReports.report(),
      ComparedReports.report(factors: ["array": 1.3], cellFactors: scattered))
    #expect(comparison.regressions.isEmpty)
    let array = comparison.cells.filter { $0.base.cell.backend == "array" && $0.ratio! > 1.05 }
    #expect(!array.isEmpty)
    #expect(array.allSatisfy { $0.verdict == .inconclusive && $0.reason.contains("busy") })
    #expect(Self.said(comparison).contains("no backend is judged"))
  }

  @Test("One cell twice as slow, its backend otherwise unchanged, is weather: inconclusive")
  func loneOutlier() throws {
    let comparison = try ComparedReports.compare(
      ComparedReports.report(), ComparedReports.report(cellFactors: ["key-path/256": 2.4]))
    #expect(comparison.regressions.isEmpty)
    let cell = try #require(comparison.cells.first { $0.key.contains("key-path/notify/-/256") })
    #expect(cell.verdict == .inconclusive)
    #expect(cell.reason.contains("a cell moving alone is weather"), "\(cell.reason)")
    #expect(Self.said(comparison).contains("No regression seen, but 1 cell(s) could not be told"))
    #expect(!Self.said(comparison).contains("No regression."))
  }

  @Test("Every backend 30% slower, the reference rows unchanged: every backend regressed")
  func everyBackendSlower() throws {
    let everyBackend = Dictionary(uniqueKeysWithValues: ComparedReports.backends.map { ($0, 1.3) })
    let comparison = try ComparedReports.compare(
      ComparedReports.report(), ComparedReports.report(factors: everyBackend))
    #expect(Set(comparison.regressions.map(\.base.cell.backend)) == Set(ComparedReports.backends))
    #expect(comparison.regressions.count == 48)
    #expect(Self.said(comparison).contains("the backends together moved +30.0%"))
  }

  @Test("Every cell 30% slower, the reference rows too, is the machine: nothing regressed")
  func wholeMachineSlower() throws {
    let everyBackend = Dictionary(uniqueKeysWithValues: ComparedReports.backends.map { ($0, 1.3) })
    let comparison = try ComparedReports.compare(
      ComparedReports.report(), ComparedReports.report(factors: everyBackend, machine: 1.3))
    #expect(comparison.regressions.isEmpty)
    #expect(
      comparison.cells.filter { !$0.base.cell.backend.hasPrefix("reference") }.allSatisfy {
        $0.verdict == .unchanged
      })
    #expect(Self.said(comparison).contains("the reference rows (the machine's speed) moved +30.0%"))
  }

  @Test("Without reference rows, every backend moving at once is inconclusive, and says why")
  func noReferenceRows() throws {
    let everyBackend = Dictionary(uniqueKeysWithValues: ComparedReports.backends.map { ($0, 1.3) })
    let comparison = try ComparedReports.compare(
      ComparedReports.report(references: false),
      ComparedReports.report(factors: everyBackend, references: false))
    #expect(comparison.regressions.isEmpty)
    #expect(comparison.cells.allSatisfy { $0.verdict == .inconclusive })
    #expect(Self.said(comparison).contains("no reference row in common"))
  }

  @Test("With too few cells of a backend to judge it, a time change is inconclusive")
  func tooFewCells() throws {
    let base = Rows.report([Rows.result(Rows.plan(), [100, 101, 102])])
    let slower = Rows.report([Rows.result(Rows.plan(), [200, 201, 202])])
    let comparison = try ComparedReports.compare(base, slower)
    #expect(comparison.cells.map(\.verdict) == [.inconclusive])
    #expect(comparison.cells[0].reason.contains("fewer than 12 cells"))
  }

  @Test("An improvement is reported as one")
  func improvement() throws {
    let comparison = try ComparedReports.compare(
      ComparedReports.report(), ComparedReports.report(factors: ["array": 0.5]))
    #expect(comparison.cells.filter { $0.verdict == .improvement }.count == 12)
    #expect(comparison.regressions.isEmpty)
  }

  @Test("A cell that turns invalid is a regression")
  func turnsInvalid() throws {
    let broken = Rows.report([
      Rows.result(Rows.plan(n: 16), status: .invalid(reason: "lost a value"))
    ])
    let comparison = try ComparedReports.compare(ComparedReports.report(), broken)
    #expect(comparison.regressions.map(\.key) == ["jemalloc/linked-list/notify/-/16/0"])
  }

  @Test("A cell capped in the candidate is reported, not gated on")
  func cappedCandidate() throws {
    let capped = Rows.report([
      Rows.result(
        Rows.plan(n: 16),
        status: .capped(reason: "stopped after the cell's time budget; largest size finished: 4"))
    ])
    let comparison = try ComparedReports.compare(ComparedReports.report(), capped)
    #expect(comparison.regressions.isEmpty)
    #expect(comparison.cells.map(\.verdict) == [.capped])
  }

  static func counts(_ instructions: [String: [Double]]) -> String {
    Rows.report(
      instructions.sorted { $0.key < $1.key }.map { backend, counts in
        Rows.result(Rows.plan(backend), instructions: counts)
      })
  }

  @Test("Instruction counts: one extra call per delivery is a regression, nothing else is")
  func instructions() throws {
    let base = Self.counts(["linked-list": [344.592], "array": [85.215]])
    let candidate = Self.counts(["linked-list": [351.6], "array": [85.215]])
    let comparison = try ComparedReports.compare(base, candidate, threshold: 0.01)
    #expect(comparison.regressions.map { $0.base.cell.backend } == ["linked-list"])
    #expect(comparison.cells.first { $0.base.cell.backend == "array" }?.verdict == .unchanged)
    #expect(Self.said(comparison).contains("344.592 instr"))
  }

  @Test("Instruction counts of an asynchronous backend within their spread are inconclusive")
  func instructionSpread() throws {
    let base = Self.counts(["swift-observations": [100, 104, 98]])
    let candidate = Self.counts(["swift-observations": [104, 105, 101]])
    let comparison = try ComparedReports.compare(base, candidate, threshold: 0.01)
    #expect(comparison.cells.map(\.verdict) == [.inconclusive])
    #expect(comparison.cells[0].reason.contains("spread"))
  }

  @Test("Reports of different metrics, schemas or allocators are refused, saying which")
  func incomparable() throws {
    let time = Rows.report([Rows.result(Rows.plan(), [1, 2, 3])])
    let counted = Self.counts(["linked-list": [300]])
    #expect(throws: Comparison.InputError.self) { try ComparedReports.compare(time, counted) }
    do { _ = try ComparedReports.compare(time, counted) } catch {
      #expect("\(error)".contains("measured in time in the base and in instructions"))
    }
    var plan = Rows.plan()
    plan.allocator = .system
    let system = Rows.report([Rows.result(plan, [1, 2, 3])])
    do {
      _ = try ComparedReports.compare(time, system)
      Issue.record("reports with no cell in common were compared")
    } catch {
      #expect("\(error)".contains("share no cell"))
      #expect("\(error)".contains("allocator jemalloc") && "\(error)".contains("allocator system"))
    }
  }

  @Test(
    "A regression concludes a comparison whatever else; inconclusive cells without one",
    arguments: [
      (0, 0, Comparison.Conclusion.noRegression), (0, 3, .inconclusive), (1, 0, .regression),
      (2, 5, .regression),
    ])
  func conclusion(regressions: Int, inconclusive: Int, expected: Comparison.Conclusion) {
    #expect(Comparison.Conclusion(regressions: regressions, inconclusive: inconclusive) == expected)
  }

}
