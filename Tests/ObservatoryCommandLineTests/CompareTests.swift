import ArgumentParser
import Foundation
import ReportFixtures
import SweepFixtures
import TestTraits
import Testing

@testable import ObservationHarness
@testable import ObservationReports
@testable import ObservatoryCommandLine

@Suite("compare")
struct CompareTests {
  static func compare(
    _ base: String, _ candidate: String, threshold: Double = 0.05
  ) throws -> Comparison {
    try Comparison(
      base: try ReportReader.read(Rows.write(base)),
      candidate: try ReportReader.read(Rows.write(candidate)),
      threshold: threshold)
  }

  static func verdicts(_ comparison: Comparison) -> [String: Comparison.Verdict] {
    Dictionary(
      uniqueKeysWithValues: comparison.cells.map {
        ($0.base.cell.backend + "/" + String($0.base.cell.n), $0.verdict)
      })
  }

  @Test("Two runs of the same build, with ordinary noise, are not a regression")
  func sameBuild() throws {
    let comparison = try Self.compare(
      ComparedReports.report(),
      ComparedReports.report(samples: [101, 99, 104, 100, 102], jitter: false))
    #expect(comparison.regressions.isEmpty)
    #expect(comparison.cells.count == (4 + MeasuredBackend.references.count) * 12)
  }

  @Test("A backend that got 30% slower at every size regresses, and nothing else does")
  func injectedRegression() throws {
    let comparison = try Self.compare(
      ComparedReports.report(), ComparedReports.report(factors: ["array": 1.3]))
    #expect(
      comparison.regressions.map { $0.base.cell.backend } == Array(repeating: "array", count: 12))
    #expect(
      comparison.cells.filter { $0.base.cell.backend != "array" }.allSatisfy {
        $0.verdict == .unchanged
      })
    #expect(comparison.text().contains("+30.0%"))
    #expect(comparison.markdown().contains("**regression**"))
  }

  @Test(
    "A burst that slowed most repetitions of a backend is not a regression; its fastest moving is")
  func burstSeenThrough() throws {
    // Every array cell's median 60% slower (three of five repetitions in a busy moment), its
    // fastest repetition not: times are compared by the fastest repetition.
    let burst = try Self.compare(
      ComparedReports.report(),
      ComparedReports.report(backendSamples: ["array": [100, 160, 161, 162, 163]]))
    #expect(burst.regressions.isEmpty)
    #expect(burst.cells.allSatisfy { $0.verdict == .unchanged }, "\(burst.text())")
    #expect(burst.text().contains("fastest repetition"))
    // The same cells with the fastest repetition 30% slower too: a regression.
    let moved = try Self.compare(
      ComparedReports.report(),
      ComparedReports.report(backendSamples: ["array": [130, 160, 161, 162, 163]]))
    #expect(Set(moved.regressions.map(\.base.cell.backend)) == ["array"])
  }

  @Test("A change below the threshold is not a regression")
  func belowThreshold() throws {
    let comparison = try Self.compare(
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
    let comparison = try Self.compare(
      ComparedReports.report(),
      ComparedReports.report(factors: ["array": 1.3], cellFactors: scattered))
    #expect(comparison.regressions.isEmpty)
    let array = comparison.cells.filter { $0.base.cell.backend == "array" && $0.ratio! > 1.05 }
    #expect(!array.isEmpty)
    #expect(array.allSatisfy { $0.verdict == .inconclusive && $0.reason.contains("busy") })
    #expect(comparison.text().contains("no backend is judged"))
  }

  @Test("One cell twice as slow, its backend otherwise unchanged, is weather: inconclusive")
  func loneOutlier() throws {
    let comparison = try Self.compare(
      ComparedReports.report(), ComparedReports.report(cellFactors: ["key-path/256": 2.4]))
    #expect(comparison.regressions.isEmpty)
    let cell = try #require(comparison.cells.first { $0.key.contains("key-path/notify/-/256") })
    #expect(cell.verdict == .inconclusive)
    #expect(cell.reason.contains("a cell moving alone is weather"), "\(cell.reason)")
    #expect(comparison.text().contains("No regression seen, but 1 cell(s) could not be told"))
    #expect(!comparison.text().contains("No regression."))
  }

  @Test("Every backend 30% slower, the reference rows unchanged: every backend regressed")
  func everyBackendSlower() throws {
    let everyBackend = Dictionary(uniqueKeysWithValues: ComparedReports.backends.map { ($0, 1.3) })
    let comparison = try Self.compare(
      ComparedReports.report(), ComparedReports.report(factors: everyBackend))
    #expect(Set(comparison.regressions.map(\.base.cell.backend)) == Set(ComparedReports.backends))
    #expect(comparison.regressions.count == 48)
    #expect(comparison.text().contains("the backends together moved +30.0%"))
  }

  @Test("Every cell 30% slower, the reference rows too, is the machine: nothing regressed")
  func wholeMachineSlower() throws {
    let everyBackend = Dictionary(uniqueKeysWithValues: ComparedReports.backends.map { ($0, 1.3) })
    let comparison = try Self.compare(
      ComparedReports.report(), ComparedReports.report(factors: everyBackend, machine: 1.3))
    #expect(comparison.regressions.isEmpty)
    #expect(
      comparison.cells.filter { !$0.base.cell.backend.hasPrefix("reference") }.allSatisfy {
        $0.verdict == .unchanged
      })
    #expect(comparison.text().contains("the reference rows (the machine's speed) moved +30.0%"))
  }

  @Test("Without reference rows, every backend moving at once is inconclusive, and says why")
  func noReferenceRows() throws {
    let everyBackend = Dictionary(uniqueKeysWithValues: ComparedReports.backends.map { ($0, 1.3) })
    let comparison = try Self.compare(
      ComparedReports.report(references: false),
      ComparedReports.report(factors: everyBackend, references: false))
    #expect(comparison.regressions.isEmpty)
    #expect(comparison.cells.allSatisfy { $0.verdict == .inconclusive })
    #expect(comparison.text().contains("no reference row in common"))
  }

  @Test("Every cell 1000 times slower, the reference rows too: not comparable, naming them")
  func machineSpeedsTooFarApart() throws {
    let everyBackend = Dictionary(
      uniqueKeysWithValues: ComparedReports.backends.map { ($0, 1000.0) })
    let base = Rows.write(ComparedReports.report())
    let slower = Rows.write(ComparedReports.report(factors: everyBackend, machine: 1000))
    let message = try Self.refusal(["compare", base, slower])
    #expect(message.contains("reference rows"), "\(message)")
    #expect(message.contains("factor of 1000"), "\(message)")
    #expect(message.contains("reference-c/notify/-/16"), "\(message)")
    #expect(message.contains("(×1000)"), "\(message)")
  }

  /// The message `arguments` are refused with, raised while running: a validation error is
  /// one line and exit status 1. Empty, with an issue recorded, if the command ran through.
  static func refusal(_ arguments: [String]) throws -> String {
    let command = try Observatory.parseAsRoot(arguments)
    do {
      try command.runAsObservatory()
      Issue.record("expected \(arguments) to be refused")
      return ""
    } catch {
      #expect(error is ValidationError)
      return Observatory.fullMessage(for: error)
    }
  }

  @Test("Timed reports of another host, CPU or core count are refused unless allowed")
  func otherMachine() throws {
    var other = Rows.environment
    other.host = "elsewhere"
    other.cores = 64
    let base = Rows.write(ComparedReports.report())
    let candidate = Rows.write(ComparedReports.report(environment: other))
    let message = try Self.refusal(["compare", base, candidate])
    #expect(message.contains("host 'host' in the base, 'elsewhere' in the candidate"))
    #expect(message.contains("2 cores in the base, 64 cores in the candidate"))
    #expect(message.contains("--allow-other-machine"))
    let command = try Observatory.parseAsRoot(
      ["compare", base, candidate, "--allow-other-machine"])
    try command.runAsObservatory()
    let comparison = try Comparison(
      base: try ReportReader.read(base), candidate: try ReportReader.read(candidate),
      threshold: 0.05, allowingOtherMachine: true)
    #expect(comparison.machineDifferences.count == 2)
    #expect(comparison.text().contains("The runs are of different machines"))
  }

  @Test(
    "Reports of different builds are refused in either metric, allowed machines or not",
    arguments: [Metric.time, .instructions])
  func otherBuild(metric: Metric) throws {
    var linkedIn = Rows.environment
    linkedIn.build = "release-static-stdlib"
    let outcome = metric == .time ? Rows.outcome([100, 101, 102]) : Rows.counted([50])
    let base = Rows.write(
      Rows.report([(Rows.plan(), .finished(outcome))], metric: metric))
    let candidate = Rows.write(
      Rows.report([(Rows.plan(), .finished(outcome))], environment: linkedIn, metric: metric))
    let message = try Self.refusal(["compare", base, candidate, "--allow-other-machine"])
    #expect(
      message.contains(
        "different builds ('release' in the base, 'release-static-stdlib' in the candidate)"))
    #expect(message.contains("`ab`"))
    var same = Rows.environment
    same.runID = "run2"
    let again = Rows.write(
      Rows.report([(Rows.plan(), .finished(outcome))], environment: same, metric: metric))
    let command = try Observatory.parseAsRoot(["compare", base, again])
    try command.runAsObservatory()
  }

  @Test("With too few cells of a backend to judge it, a time change is inconclusive")
  func tooFewCells() throws {
    let base = Rows.report([(Rows.plan(), .finished(Rows.outcome([100, 101, 102])))])
    let slower = Rows.report([(Rows.plan(), .finished(Rows.outcome([200, 201, 202])))])
    let comparison = try Self.compare(base, slower)
    #expect(comparison.cells.map(\.verdict) == [.inconclusive])
    #expect(comparison.cells[0].reason.contains("fewer than 12 cells"))
  }

  @Test("An improvement is reported as one")
  func improvement() throws {
    let comparison = try Self.compare(
      ComparedReports.report(), ComparedReports.report(factors: ["array": 0.5]))
    #expect(comparison.cells.filter { $0.verdict == .improvement }.count == 12)
    #expect(comparison.regressions.isEmpty)
  }

  @Test("A cell that turns invalid is a regression")
  func turnsInvalid() throws {
    let broken = Rows.report([
      (Rows.plan(n: 16), .finished(Rows.outcome([], problem: "lost a value")))
    ])
    let comparison = try Self.compare(ComparedReports.report(), broken)
    #expect(comparison.regressions.map(\.key) == ["jemalloc/linked-list/notify/-/16/0"])
  }

  @Test("A cell capped in the candidate is reported, not gated on")
  func cappedCandidate() throws {
    let capped = Rows.report([(Rows.plan(n: 16), .timedOut)])
    let comparison = try Self.compare(ComparedReports.report(), capped)
    #expect(comparison.regressions.isEmpty)
    #expect(comparison.cells.map(\.verdict) == [.capped])
  }

  static func counts(_ instructions: [String: [Double]], metric: Metric = .instructions) -> String {
    Rows.report(
      instructions.sorted { $0.key < $1.key }.map { backend, counts in
        (Rows.plan(backend), .finished(Rows.counted(counts)))
      }, metric: metric)
  }

  @Test("Instruction counts: one extra call per delivery is a regression, nothing else is")
  func instructions() throws {
    let base = Self.counts(["linked-list": [344.592], "array": [85.215]])
    let candidate = Self.counts(["linked-list": [351.6], "array": [85.215]])
    let comparison = try Self.compare(base, candidate, threshold: 0.01)
    #expect(comparison.regressions.map { $0.base.cell.backend } == ["linked-list"])
    #expect(comparison.cells.first { $0.base.cell.backend == "array" }?.verdict == .unchanged)
    #expect(comparison.text().contains("344.592 instr"))
  }

  @Test("Instruction counts of an asynchronous backend within their spread are inconclusive")
  func instructionSpread() throws {
    let base = Self.counts(["swift-observations": [100, 104, 98]])
    let candidate = Self.counts(["swift-observations": [104, 105, 101]])
    let comparison = try Self.compare(base, candidate, threshold: 0.01)
    #expect(comparison.cells.map(\.verdict) == [.inconclusive])
    #expect(comparison.cells[0].reason.contains("spread"))
  }

  @Test("Reports of different metrics, schemas or allocators are refused, saying which")
  func incomparable() throws {
    let time = Rows.report([(Rows.plan(), .finished(Rows.outcome([1, 2, 3])))])
    let counted = Self.counts(["linked-list": [300]])
    #expect(throws: Comparison.InputError.self) { try Self.compare(time, counted) }
    do { _ = try Self.compare(time, counted) } catch {
      #expect("\(error)".contains("measured in time in the base and in instructions"))
    }
    var plan = Rows.plan()
    plan.allocator = .system
    let system = Rows.report([(plan, .finished(Rows.outcome([1, 2, 3])))])
    do {
      _ = try Self.compare(time, system)
      Issue.record("reports with no cell in common were compared")
    } catch {
      #expect("\(error)".contains("share no cell"))
      #expect("\(error)".contains("allocator jemalloc") && "\(error)".contains("allocator system"))
    }
  }

  @Test("The full sweep's Markdown fits a pull-request comment")
  func markdownSize() throws {
    let results = PackageDirectory.appending("Results")
    // Two full reports of neighbouring commits: hundreds of cells changed, capped or new.
    let base = try ReportReader.read(
      results.appendingPathComponent("2026-11-23_e4202d2fd5eb_vm.csv").path)
    let candidate = try ReportReader.read(
      results.appendingPathComponent("2026-11-23_6e57e24443f6_vm.csv").path)
    #expect(base.count > 700 && candidate.count > 700)
    let comparison = try Comparison(base: base, candidate: candidate, threshold: 0.05)
    let markdown = comparison.markdown()
    #expect(markdown.count < 60_000, "\(markdown.count) characters")
    #expect(comparison.markdown(changesOnly: true).count < markdown.count)
  }

  @Test("The command exits 2 on a regression and 0 without one")
  func exitCodes() throws {
    let base = Rows.write(ComparedReports.report())
    let slower = Rows.write(ComparedReports.report(factors: ["array": 1.5]))
    var command = try Observatory.parseAsRoot(["compare", base, slower])
    #expect(throws: ExitCode(2)) { try command.runAsObservatory() }
    command = try Observatory.parseAsRoot(["compare", base, base, "--format", "markdown"])
    try command.runAsObservatory()
    command = try Observatory.parseAsRoot(["compare", base, base, "--changes-only"])
    try command.runAsObservatory()
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

  @Test("Exit statuses: 2 on a regression, 4 on inconclusive cells (0 when accepted), else 0")
  func exitStatuses() {
    #expect(ExitStatus(.regression, acceptingInconclusive: false) == .regression)
    #expect(ExitStatus(.regression, acceptingInconclusive: true) == .regression)
    #expect(ExitStatus(.inconclusive, acceptingInconclusive: false) == .inconclusive)
    #expect(ExitStatus(.inconclusive, acceptingInconclusive: true) == .success)
    #expect(ExitStatus(.noRegression, acceptingInconclusive: false) == .success)
    #expect(ExitStatus(.noRegression, acceptingInconclusive: true) == .success)
    // What scripts rely on: a regression stays 2, and the statuses are those documented.
    #expect(ExitStatus.incompatibleCellRequest.rawValue == CellChild.incompatibleExitStatus)
    #expect(ExitStatus.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
    #expect(ExitStatus.regression.rawValue == 2 && ExitStatus.inconclusive.rawValue == 4)
  }

  @Test("The command exits 4 on inconclusive cells, 0 with --inconclusive-ok, 2 on a regression")
  func inconclusiveExitCodes() throws {
    let (base, weather, regressed) = ComparedReports.inconclusiveReports()
    let inconclusive = try Comparison(
      base: try ReportReader.read(base), candidate: try ReportReader.read(weather),
      threshold: 0.05)
    #expect(inconclusive.conclusion == .inconclusive)
    #expect(inconclusive.inconclusive.map(\.key) == ["jemalloc/linked-list/notify/-/1024/0"])
    let both = try Comparison(
      base: try ReportReader.read(base), candidate: try ReportReader.read(regressed),
      threshold: 0.05)
    #expect(!both.regressions.isEmpty && !both.inconclusive.isEmpty)
    #expect(both.conclusion == .regression)

    var command = try Observatory.parseAsRoot(["compare", base, weather])
    #expect(throws: ExitCode(4)) { try command.runAsObservatory() }
    command = try Observatory.parseAsRoot(["compare", base, weather, "--inconclusive-ok"])
    try command.runAsObservatory()
    for arguments in [
      ["compare", base, regressed], ["compare", base, regressed, "--inconclusive-ok"],
    ] {
      command = try Observatory.parseAsRoot(arguments)
      #expect(throws: ExitCode(2)) { try command.runAsObservatory() }
    }
  }

  @Test("Input errors are reported as usage errors naming the file")
  func inputErrors() throws {
    let base = Rows.write(ComparedReports.report())
    let command = try Observatory.parseAsRoot(["compare", base, "/nonexistent.csv"])
    do {
      try command.runAsObservatory()
      Issue.record("expected an error")
    } catch {
      #expect(Observatory.exitCode(for: error) != .success)
      #expect(Observatory.fullMessage(for: error).contains("/nonexistent.csv: no such file"))
    }
    #expect(throws: (any Error).self) {
      try Observatory.parseAsRoot(["compare", base, base, "--format", "xml"])
    }
    #expect(throws: (any Error).self) {
      try Observatory.parseAsRoot(["compare", base, base, "--threshold", "nan"])
    }
  }
}
