import Foundation
import ObservationWorkloads
import ReportFixtures
import Testing

@testable import ObservationReports

@Suite("Exports for continuous-benchmarking services")
struct ExportFormatTests {
  /// A committed path under the package's top directory.
  static func committed(_ path: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../" + path).standardizedFileURL.path
  }

  /// A time report of the main job: measured, capped, n/a and invalid cells, jemalloc's columns.
  static let timeReport = committed("Results/2026-11-28_be36b731ab40_vm.csv")
  /// An instruction-count report of the gate.
  static let instructionReport = committed("Results/baselines/instructions.csv")

  /// An instruction-count result of `cell` with `count` instructions per operation, and the
  /// processes' spread when given.
  static func counted(_ cell: Cell, count: Double, spread: Double?) -> CellResult {
    var result = CellResult(
      cell: cell, environment: Rows.environment, metric: .instructions,
      status: .okWithoutMemory(reason: "no jemalloc"))
    result.repetitions = 3
    result.instructionsPerOperation = count
    result.instructionsSpread = spread
    return result
  }

  @Test(
    "Every measured cell gets a name of its own, and only those",
    arguments: [timeReport, instructionReport])
  func namesAreUnique(_ path: String) throws {
    let results = try Report.read(path).results
    let measured = results.filter(\.status.isMeasured)
    let names = GitHubActionBenchmarkFormat.entries(results).map(\.name)
    #expect(names.count == measured.count)
    #expect(Set(names).count == names.count)
    #expect(names == measured.map(\.cell.benchmarkName))
    #expect(BencherMetricFormat.document(results).count == measured.count)
    #expect(names.allSatisfy { $0.utf8.count <= 1024 })
  }

  @Test("A name says every field that tells cells apart, labelled, and leaves out the defaults")
  func names() {
    var cell = Cell(allocator: .jemalloc, backend: "linked-list", workload: .notify, n: 1024)
    #expect(cell.benchmarkName == "linked-list/notify/-/n=1024/allocator=jemalloc")
    cell = Cell(
      allocator: .system, backend: "key-path", workload: .nested, pattern: .leaf, n: 16, depth: 3)
    #expect(cell.benchmarkName == "key-path/nested/leaf/n=16/depth=3/allocator=system")
    cell = Cell(
      allocator: .jemalloc, backend: "dense-synchronized", workload: .contendedNotify, n: 16,
      threads: 4)
    #expect(
      cell.benchmarkName
        == "dense-synchronized/contended-notify/-/n=16/threads=4/allocator=jemalloc")
  }

  @Test("Bencher: the median as latency, from the fastest repetition to the 90th percentile")
  func bencherTime() throws {
    let results = try Report.read(Self.timeReport).results
    let document = BencherMetricFormat.document(results)
    var withAllocations = 0
    for result in results where result.status.isMeasured {
      let measures = try #require(document[result.cell.benchmarkName])
      let latency = try #require(measures["latency"])
      let nanoseconds = try #require(result.nanoseconds)
      #expect(latency.value == nanoseconds.median)
      #expect(latency.lowerValue == nanoseconds.min)
      #expect(latency.upperValue == nanoseconds.p90)
      #expect(measures["instructions"] == nil)
      #expect(measures["allocations"]?.value == result.allocationsPerOperation)
      #expect(measures["allocated-bytes"]?.value == result.bytesPerOperation)
      if result.allocationsPerOperation != nil { withAllocations += 1 }
    }
    #expect(withAllocations > 0)
    // The reference rows are there to normalize by, under their own names.
    #expect(document.keys.contains("reference-c/notify/-/n=1024/allocator=jemalloc"))
  }

  @Test("Instructions: the count ± its spread, which holds every process's count")
  func instructionBounds() throws {
    let cell = Cell(allocator: .system, backend: "async-share", workload: .notify, n: 16)
    let spread = Self.counted(cell, count: 200, spread: 0.1)
    let bounds = try #require(spread.costBounds)
    #expect(bounds.lower == 180 && bounds.upper == 220)
    let document = BencherMetricFormat.document([spread])
    let measure = try #require(document[cell.benchmarkName]?["instructions"])
    #expect(measure == .init(value: 200, lowerValue: 180, upperValue: 220))
    let entry = try #require(GitHubActionBenchmarkFormat.entries([spread]).first)
    #expect(entry.unit == "instructions" && entry.value == 200 && entry.range == "±20")
    // One process, no spread: no bounds to give.
    let single = Self.counted(cell, count: 200, spread: nil)
    #expect(single.costBounds == nil)
    #expect(
      BencherMetricFormat.document([single])[cell.benchmarkName]?["instructions"]?.lowerValue == nil
    )
    #expect(GitHubActionBenchmarkFormat.entries([single]).first?.range == nil)
    // A spread over 1 brings the lower bound to 0, never below.
    #expect(Self.counted(cell, count: 200, spread: 1.5).costBounds?.lower == 0)
  }

  @Test("Unmeasured cells are left out and counted by status")
  func leftOut() throws {
    let results = try Report.read(Self.timeReport).results
    let selection = ExportSelection(results)
    var expected: [String: Int] = [:]
    for result in results where !result.status.isMeasured {
      expected[result.status.name, default: 0] += 1
    }
    #expect(selection.leftOut.map(\.status) == expected.keys.sorted())
    #expect(selection.leftOut.allSatisfy { expected[$0.status] == $0.count })
    #expect(selection.exported.count + selection.leftOutCount == results.count)
    #expect(
      selection.leftOutSummary
        == "left out 357 cells (capped 274, invalid 3, n/a 80): not measured")
    let instructions = try Report.read(Self.instructionReport).results
    #expect(ExportSelection(instructions).leftOutSummary == nil)
  }

  @Test(
    "Round trip: the JSON parsed back holds each measured cell once, with its cost",
    arguments: [timeReport, instructionReport])
  func roundTrip(_ path: String) throws {
    let results = try Report.read(path).results
    let costs = Dictionary(
      uniqueKeysWithValues: results.filter(\.status.isMeasured).compactMap { result in
        result.cost.map { (result.cell.benchmarkName, $0) }
      })
    let measure = results[0].metric == .time ? "latency" : "instructions"

    let bencher = try BencherMetricFormat.json(results)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(bencher.utf8)) as? [String: [String: Any]])
    #expect(document.count == costs.count)
    for (name, measures) in document {
      let metric = try #require(measures[measure] as? [String: Double], "\(name)")
      #expect(metric["value"] == costs[name], "\(name)")
      let lower = metric["lower_value"] ?? metric["value"]!
      let upper = metric["upper_value"] ?? metric["value"]!
      #expect(lower <= metric["value"]! && metric["value"]! <= upper, "\(name)")
    }

    let github = try GitHubActionBenchmarkFormat.json(results)
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(github.utf8)) as? [[String: Any]])
    #expect(entries.count == costs.count)
    #expect(Set(entries.compactMap { $0["name"] as? String }) == Set(costs.keys))
    for entry in entries {
      let name = try #require(entry["name"] as? String)
      #expect(entry["value"] as? Double == costs[name], "\(name)")
      #expect(entry["unit"] as? String == (measure == "latency" ? "ns" : "instructions"))
      let extra = try #require(entry["extra"] as? String)
      #expect(extra.contains("host: vm\n") && extra.contains("build: release-static-stdlib\n"))
      #expect(extra.contains("commit: \(results[0].environment.commit)"))
    }
    // The same report exports the same text: keys sorted, nothing that changes per run.
    #expect(try BencherMetricFormat.json(results) == bencher)
    #expect(try GitHubActionBenchmarkFormat.json(results) == github)
  }

  @Test("github-action-benchmark: range is ± the wider side, extra names machine, build, limit")
  func gitHubActionBenchmarkEntry() throws {
    let results = try Report.read(Self.timeReport).results
    let result = try #require(
      results.first {
        $0.cell.backend == "linked-list" && $0.cell.workload == .notify && $0.cell.n == 1024
          && $0.status.isMeasured
      })
    let entry = try #require(
      GitHubActionBenchmarkFormat.entries(results).first { $0.name == result.cell.benchmarkName })
    let nanoseconds = try #require(result.nanoseconds)
    let width = max(nanoseconds.median - nanoseconds.min, nanoseconds.p90 - nanoseconds.median)
    #expect(entry.range == "±" + csvNumber(width))
    let extra = try #require(entry.extra)
    #expect(extra.hasPrefix("host: vm\ncpu: Intel(R) Xeon(R) Processor\ncores: 2\n"))
    #expect(extra.contains("allocator: jemalloc 5.3.0-0-g"))
    #expect(extra.contains("date: 2026-11-28T03:40:48Z"))
    let ratio = try #require(result.ratioToLimit)
    #expect(extra.contains("ratio to limit: \(csvNumber(ratio))"))
  }

  @Test("The suggested testbed names the machine and build in at most 64 characters")
  func testbed() {
    var environment = Rows.environment
    environment.host = "vm"
    environment.cpu = "Intel(R) Xeon(R) Processor"
    environment.build = "release-static-stdlib"
    #expect(
      BencherMetricFormat.suggestedTestbed(for: environment)
        == "vm-intel-r-xeon-r-processor-2-cores-release-static-stdlib")
    environment.cpu = "AMD Ryzen Threadripper PRO 7995WX 96-Cores with a very long name"
    let long = BencherMetricFormat.suggestedTestbed(for: environment)
    #expect(long.count <= 64 && long.hasPrefix("vm-amd-ryzen-"), "\(long)")
    #expect(long.hasSuffix("-2-cores-release-static-stdlib"), "\(long)")
    environment.host = String(repeating: "h", count: 100)
    #expect(BencherMetricFormat.suggestedTestbed(for: environment).count == 64)
  }
}
