import ArgumentParser
import Foundation
import Testing

@testable import observatory

@Suite("compare")
struct CompareTests {
  /// A report with one notify cell per size whose repetitions are `samples` scaled by `factor`.
  static func report(
    factor: Double, samples: [Double] = [100, 101, 102, 103, 104], runID: String = "r"
  )
    -> String
  {
    var environment = Rows.environment
    environment.runID = runID
    let cells: [(CellPlan, CellRunner.Result?)] = [16, 256, 4096].map { n in
      (Rows.plan(n: n), .finished(Rows.outcome(samples.map { $0 * factor })))
    }
    return Rows.report(cells, environment: environment)
  }

  static func compare(
    _ base: String, _ candidate: String, threshold: Double = 0.05
  ) throws -> Comparison {
    Comparison(
      base: try ReportReader.read(Rows.write(base)),
      candidate: try ReportReader.read(Rows.write(candidate)),
      threshold: threshold)
  }

  @Test("Two runs of the same build, with ordinary noise, are not a regression")
  func sameBuild() throws {
    let comparison = try Self.compare(
      Self.report(factor: 1), Self.report(factor: 1, samples: [101, 99, 104, 100, 102]))
    #expect(comparison.regressions.isEmpty)
    #expect(comparison.cells.count == 3)
  }

  @Test("An injected regression is flagged")
  func injectedRegression() throws {
    let comparison = try Self.compare(Self.report(factor: 1), Self.report(factor: 1.3))
    #expect(comparison.regressions.count == 3)
    #expect(comparison.text.contains("+30.0%"))
    #expect(comparison.markdown.contains("**regression**"))
  }

  @Test("A change below the threshold is not a regression")
  func belowThreshold() throws {
    let comparison = try Self.compare(Self.report(factor: 1), Self.report(factor: 1.04))
    #expect(comparison.regressions.isEmpty)
  }

  @Test("A change hidden in the noise of the repetitions is not a regression")
  func withinNoise() throws {
    let noisy: [Double] = [60, 100, 140, 180, 220]
    let comparison = try Self.compare(
      Self.report(factor: 1, samples: noisy), Self.report(factor: 1.2, samples: noisy))
    #expect(comparison.regressions.isEmpty)
    #expect(comparison.cells.allSatisfy { $0.verdict == .noisy })
  }

  @Test("An improvement is reported as one")
  func improvement() throws {
    let comparison = try Self.compare(Self.report(factor: 1), Self.report(factor: 0.5))
    #expect(comparison.cells.allSatisfy { $0.verdict == .improvement })
    #expect(comparison.regressions.isEmpty)
  }

  @Test("A cell that turns invalid is a regression")
  func turnsInvalid() throws {
    let broken = Rows.report([
      (Rows.plan(n: 16), .finished(Rows.outcome([], problem: "lost a value")))
    ])
    let comparison = try Self.compare(Self.report(factor: 1), broken)
    #expect(comparison.regressions.map(\.key) == ["jemalloc/linked-list/notify/-/16/0"])
  }

  @Test("A cell capped in the candidate is reported, not gated on")
  func cappedCandidate() throws {
    let capped = Rows.report([(Rows.plan(n: 16), .timedOut)])
    let comparison = try Self.compare(Self.report(factor: 1), capped)
    #expect(comparison.regressions.isEmpty)
    #expect(comparison.cells.map(\.verdict) == [.capped])
  }

  @Test("The command exits 2 on a regression and 0 without one")
  func exitCodes() throws {
    let base = Rows.write(Self.report(factor: 1))
    let slower = Rows.write(Self.report(factor: 1.5))
    var command = try Observatory.parseAsRoot(["compare", base, slower])
    #expect(throws: ExitCode(2)) { try command.run() }
    command = try Observatory.parseAsRoot(["compare", base, base, "--format", "markdown"])
    try command.run()
  }

  @Test("Input errors are reported as usage errors naming the file")
  func inputErrors() throws {
    let base = Rows.write(Self.report(factor: 1))
    var command = try Observatory.parseAsRoot(["compare", base, "/nonexistent.csv"])
    do {
      try command.run()
      Issue.record("expected an error")
    } catch {
      #expect(Observatory.exitCode(for: error) != .success)
      #expect(Observatory.fullMessage(for: error).contains("/nonexistent.csv: no such file"))
    }
    #expect(throws: (any Error).self) {
      try Observatory.parseAsRoot(["compare", base, base, "--format", "xml"])
    }
  }
}

@Suite("history")
struct HistoryTests {
  @Test("One cell across reports, oldest first, with the change from the previous one")
  func trend() throws {
    var early = Rows.environment
    early.date = "2026-11-01T00:00:00Z"
    early.commit = "early"
    var late = Rows.environment
    late.date = "2026-11-15T00:00:00Z"
    late.commit = "late"
    let lateReport = Rows.report(
      [(Rows.plan(), .finished(Rows.outcome([20, 20, 20])))], environment: late)
    let earlyReport = Rows.report(
      [(Rows.plan(), .finished(Rows.outcome([10, 10, 10])))], environment: early)
    let rows =
      try ReportReader.read(Rows.write(lateReport)) + ReportReader.read(Rows.write(earlyReport))
    let table = HistoryCommand.table(rows)
    let lines = table.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[1].contains("early") && lines[2].contains("late"))
    #expect(lines[2].contains("+100.0%"))
  }

  @Test("No matching row is an error that says what was looked for")
  func noMatch() throws {
    let path = Rows.write(Rows.report([(Rows.plan(), .finished(Rows.outcome([1, 2, 3])))]))
    var command = try Observatory.parseAsRoot([
      "history", path, "--backend", "array", "--workload", "notify", "--n", "16",
    ])
    #expect(throws: ValidationError.self) { try command.run() }
  }

  @Test("A nested cell is matched at its depth: 3 unless --depth says otherwise")
  func nestedDepth() throws {
    var deep = Rows.plan(workload: "nested", n: 16)
    deep.pattern = "leaf"
    deep.depth = 8
    let path = Rows.write(Rows.report([(deep, .finished(Rows.outcome([1, 2, 3])))]))
    let arguments = [
      "history", path, "--backend", "linked-list", "--workload", "nested", "--pattern", "leaf",
      "--n", "16",
    ]
    var atDefault = try HistoryCommand.parse(Array(arguments.dropFirst()))
    #expect(atDefault.plannedDepth == 3)
    do {
      try atDefault.run()
      Issue.record("a depth-8 row matched the default depth 3")
    } catch {
      #expect("\(error)".contains("depth 3"))
    }
    var atEight = try HistoryCommand.parse(Array(arguments.dropFirst()) + ["--depth", "8"])
    try atEight.run()
  }
}

@Suite("run: bad input fails before anything is written")
struct RunValidationTests {
  static func rejects(_ arguments: [String], mentioning text: String) {
    do {
      _ = try Observatory.parseAsRoot(arguments)
      Issue.record("expected \(arguments) to be rejected")
    } catch {
      #expect(
        Observatory.fullMessage(for: error).contains(text), "\(Observatory.fullMessage(for: error))"
      )
    }
  }

  @Test("Unknown backend, unknown workload, bad size, unknown allocator")
  func badInput() {
    Self.rejects(
      ["run", "--allow-debug", "--backend", "nope"], mentioning: "unknown backend 'nope'")
    Self.rejects(
      ["run", "--allow-debug", "--workload", "spin"], mentioning: "unknown workload 'spin'")
    Self.rejects(["run", "--allow-debug", "--sizes", "16,zero"], mentioning: "bad size 'zero'")
    Self.rejects(["run", "--allow-debug", "--sizes", "0"], mentioning: "bad size '0'")
    Self.rejects(["run", "--allow-debug", "--depths", "3,0"], mentioning: "bad depth '0'")
    Self.rejects(["run", "--allow-debug", "--depths", "65"], mentioning: "bad depth '65'")
    Self.rejects(
      ["run", "--allow-debug", "--allocator", "tcmalloc"],
      mentioning: "unknown allocator 'tcmalloc'")
  }

  @Test("A debug build refuses to write a report unless allowed")
  func debugBuild() throws {
    if RunEnvironment.isDebugBuild {
      Self.rejects(["run"], mentioning: "debug build")
    }
    _ = try Observatory.parseAsRoot(["run", "--allow-debug", "--quick"])
  }

  @Test("An existing report is untouched when the run is rejected")
  func resultsUntouched() throws {
    let path = Rows.write("previous report\n")
    Self.rejects(
      ["run", "--allow-debug", "--sizes", "x", "--output", path], mentioning: "bad size")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous report\n")
  }
}
