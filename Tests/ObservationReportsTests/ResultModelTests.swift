import Foundation
import ObservationWorkloads
import ReportFixtures
import Testing

@testable import ObservationReports

@Suite("The typed result model")
struct ResultModelTests {
  /// Every report committed under `Results/`.
  static let committedReports: [String] = {
    let results = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Results").standardizedFileURL.path
    let enumerator = FileManager.default.enumerator(atPath: results)
    return (enumerator?.allObjects as? [String] ?? [])
      .filter { $0.hasSuffix(".csv") && !$0.hasSuffix("conformance.csv") }
      .map { results + "/" + $0 }.sorted()
  }()

  @Test("Every committed report reads into typed results and writes back byte for byte")
  func committedReportsRoundTrip() throws {
    #expect(Self.committedReports.count >= 4)
    for path in Self.committedReports {
      let report = try Report.read(path)
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(report.csv == text, "\(path)")
      #expect(report.results.count == text.split(separator: "\n").count - 1)
    }
  }

  @Test("JSON holds the same results as the CSV: numbers as numbers, no key for an empty column")
  func jsonRoundTrip() throws {
    let path = try #require(Self.committedReports.first { $0.contains("_vm.csv") })
    let report = try Report.read(path)
    let json = try report.json()
    let decoded = try JSONDecoder().decode(Report.self, from: Data(json.utf8))
    #expect(decoded == report)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["schema"] as? String == ReportSchema.version)
    let first = try #require((object["results"] as? [[String: Any]])?.first)
    #expect(first["n"] is Int && first["backend"] is String)
    let measured = try #require(
      (object["results"] as? [[String: Any]])?.first { $0["status"] as? String == "ok" })
    #expect(measured["ns_median"] is Double && measured["note"] == nil)
  }

  @Test(
    "JSON is checked by the CSV's column table: what the CSV reader refuses, JSON does too",
    arguments: [
      ("ns_median", "-2", "column 'ns_median' should be above zero"),
      ("n", "0", "column 'n' should be a whole number from 1"),
      ("workload", "\"spin\"", "workload 'spin' is not one of"),
      ("status", "\"fine\"", "status 'fine' is not one of"),
      ("note", "\"why\"", "status 'ok' takes no note"),
    ])
  func jsonIsChecked(column: String, value: String, problem: String) throws {
    let path = try #require(Self.committedReports.first { $0.contains("_vm.csv") })
    let measured = try #require(try Report.read(path).results.first { $0.status == .ok })
    let json = String(decoding: try JSONEncoder().encode(measured), as: UTF8.self)
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    object[column] = try JSONSerialization.jsonObject(
      with: Data(value.utf8), options: .fragmentsAllowed)
    let broken = try JSONSerialization.data(withJSONObject: object)
    #expect(try JSONDecoder().decode(CellResult.self, from: json.data(using: .utf8)!) == measured)
    do {
      _ = try JSONDecoder().decode(CellResult.self, from: broken)
      Issue.record("\(column) = \(value) was accepted")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription.contains(problem), "\(context.debugDescription)")
    }
  }

  @Test("The header is the column table's, and every column appears once")
  func header() {
    let names = ReportColumn.all.map(\.name)
    #expect(ReportSchema.header == names.joined(separator: ","))
    #expect(Set(names).count == names.count)
    #expect(ReportColumn.columns(ofVersion: "1")?.contains { $0.name == "metric" } == false)
    #expect(ReportColumn.columns(ofVersion: "2")?.contains { $0.name == "threads" } == false)
    #expect(ReportColumn.columns(ofVersion: "3")?.contains { $0.name == "row_kind" } == false)
    #expect(ReportColumn.columns(ofVersion: "4")?.contains { $0.name == "sweep" } == false)
    #expect(ReportColumn.columns(ofVersion: "5")?.count == names.count)
    #expect(ReportColumn.columns(ofVersion: "6") == nil)
  }

  @Test("A row says what it measures; before schema 4 its name did, and a unit is its workload's")
  func rowKindAndUnit() throws {
    let current = Rows.report([
      Rows.result(Rows.plan("reference-c"), [1, 2, 3]),
      Rows.result(Rows.plan("array"), [10, 11, 12]),
    ])
    #expect(current.contains(",reference-c,reference,") && current.contains(",array,backend,"))
    let rows = try ReportReader.read(Rows.write(current))
    #expect(rows.map(\.rowKind) == [.reference, .backend])
    #expect(rows.map(\.isReference) == [true, false])
    // Schema 3, without the column: the reference rows are known by their names.
    let older = Rows.csv(rows, asSchema: "3")
    #expect(!older.contains("row_kind"))
    #expect(try ReportReader.read(Rows.write(older)).map(\.rowKind) == [.reference, .backend])
    // The column is the writer's word: a row it calls a reference is one, whatever its name.
    let relabelled = Rows.write(
      current.replacingOccurrences(of: ",array,backend,", with: ",array,reference,"))
    #expect(try ReportReader.read(relabelled).map(\.rowKind) == [.reference, .reference])
    let badKind = Rows.write(
      current.replacingOccurrences(of: ",array,backend,", with: ",array,floor,"))
    let kindError = #expect(throws: ReportError.self) { try ReportReader.read(badKind) }
    #expect(
      "\(kindError.map { "\($0)" } ?? "")".contains(
        "row_kind 'floor' is not one of backend, reference"))
    let badUnit = Rows.write(current.replacingOccurrences(of: ",delivery,", with: ",write,"))
    let unitError = #expect(throws: ReportError.self) { try ReportReader.read(badUnit) }
    #expect(
      "\(unitError.map { "\($0)" } ?? "")".contains(
        "unit 'write' is not what notify counts ('delivery')"))
  }

  @Test("A report says which sweep wrote it; one of schema 4 or older does not")
  func sweepKind() throws {
    var environment = Rows.environment
    environment.sweep = .quick
    let current = Rows.report([Rows.result(Rows.plan(), [1, 2, 3], environment: environment)])
    #expect(current.contains(",release,quick,jemalloc,"))
    let rows = try ReportReader.read(Rows.write(current))
    #expect(rows.map(\.environment.sweep) == [.quick])
    let older = Rows.csv(rows, asSchema: "4")
    #expect(!older.contains("sweep") && !older.contains(",quick,"))
    #expect(try ReportReader.read(Rows.write(older)).map(\.environment.sweep) == [nil])
    let badSweep = Rows.write(
      current.replacingOccurrences(of: ",release,quick,", with: ",release,nightly,"))
    let error = #expect(throws: ReportError.self) { try ReportReader.read(badSweep) }
    #expect(
      "\(error.map { "\($0)" } ?? "")".contains(
        "sweep 'nightly' is not one of default, quick, partial, quick-partial, gate"))
    #expect(SweepKind(quick: false, narrowed: false) == .default)
    #expect(SweepKind(quick: true, narrowed: true) == .quickPartial)
    #expect(SweepKind.gate.isNarrowed && !SweepKind.gate.isQuick)
  }

  @Test(
    "A jemalloc cell says which jemalloc it ran on; a system cell, or an older report, does not")
  func allocatorVersion() throws {
    var jemalloc = Rows.result(Rows.plan(), [1, 2, 3])
    jemalloc.allocatorVersion = "5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c"
    var system = Rows.plan("array")
    system.allocator = .system
    let text = Rows.report([jemalloc, Rows.result(system, [4])])
    let rows = try ReportReader.read(Rows.write(text))
    #expect(rows.map(\.allocatorVersion) == [jemalloc.allocatorVersion, nil])
    #expect(ReportSchema.header.contains(",allocator,allocator_version,backend,"))
    let older = Rows.csv(rows, asSchema: "4")
    #expect(!older.contains("allocator_version") && !older.contains("5.3.0"))
    #expect(try ReportReader.read(Rows.write(older)).map(\.allocatorVersion) == [nil, nil])
  }

  @Test("A status and its reason are one typed value; ok carries no reason")
  func statuses() {
    #expect(CellResult.Status(name: "ok", reason: "") == .ok)
    #expect(CellResult.Status(name: "ok", reason: "why") == nil)
    #expect(CellResult.Status(name: "capped", reason: "r") == .capped(reason: "r"))
    #expect(CellResult.Status(name: "ok-no-memory", reason: "r")?.isMeasured == true)
    #expect(CellResult.Status(name: "failed", reason: "r")?.isMeasured == false)
    #expect(CellResult.Status(name: "done", reason: "") == nil)
    #expect(
      CellResult.Status.names == ["capped", "failed", "invalid", "n/a", "ok", "ok-no-memory"])
    for status in [
      CellResult.Status.ok, .okWithoutMemory(reason: "a"), .capped(reason: "b"),
      .invalid(reason: "c"), .failed(reason: "d"),
    ] {
      #expect(CellResult.Status(name: status.name, reason: status.reason) == status)
    }
  }
}
