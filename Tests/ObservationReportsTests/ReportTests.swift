import Foundation
import ObservationWorkloads
import ReportFixtures
import Testing

@testable import ObservationReports

@Suite("CSV report")
struct ReportTests {
  @Test("The header is the documented schema, and rows read back as written")
  func roundTrip() throws {
    let text = Rows.report([
      Rows.result(Rows.plan("reference-c"), [2, 2.1, 2.2], ratioToLimit: 1),
      Rows.result(Rows.plan(), [10, 11, 12, 13, 14], ratioToLimit: 12 / 2.1),
    ])
    #expect(text.hasPrefix(ReportSchema.header + "\n"))
    let rows = try ReportReader.read(Rows.write(text))
    #expect(rows.count == 2)
    let row = rows[1]
    #expect(row.nanoseconds == CellResult.Quantiles(min: 10, median: 12, p90: 13.6, max: 14))
    #expect(row.ratioToLimit.map(csvNumber) == csvNumber(12 / 2.1))
    #expect(row.environment == Rows.environment)
    #expect(row.status == .ok && row.unit == "delivery" && row.metric == .time)
    #expect(row.cell == Rows.plan())
    #expect(Report(rows).csv == text)
  }

  @Test("Order statistics interpolate between ranks")
  func statistics() throws {
    let summary = try #require(CellResult.Quantiles([4, 1, 3, 2]))
    #expect(summary.min == 1 && summary.max == 4 && summary.median == 2.5)
    #expect(abs(summary.p90 - 3.7) < 1e-9)
    #expect(CellResult.Quantiles([]) == nil)
  }
}

@Suite("Reading reports: errors name the file, the line and the problem")
struct ReportErrorTests {
  @Test("A missing file")
  func missing() {
    #expect(throws: ReportError.missing(file: "/nonexistent/report.csv")) {
      try ReportReader.read("/nonexistent/report.csv")
    }
  }

  @Test("A wrong header")
  func wrongHeader() {
    let path = Rows.write("backend,ns\nlinked-list,3\n")
    #expect(throws: ReportError.badHeader(file: path, found: "backend,ns")) {
      try ReportReader.read(path)
    }
  }

  @Test("A row with too few fields")
  func shortRow() throws {
    let good = Rows.report([Rows.result(Rows.plan(), [1, 2, 3])])
    let path = Rows.write(good + "1,run,abc\n")
    #expect(
      throws: ReportError.malformed(
        file: path, line: 3,
        problem: "expected \(ReportColumn.all.count) fields, found 3")
    ) {
      try ReportReader.read(path)
    }
  }

  @Test("A number column holding text")
  func notANumber() throws {
    let good = Rows.report([Rows.result(Rows.plan(), [1, 2, 3])])
    let broken = good.replacingOccurrences(of: ",16,0,1,delivery,", with: ",sixteen,0,1,delivery,")
    let path = Rows.write(broken)
    #expect(
      throws: ReportError.malformed(
        file: path, line: 2,
        problem:
          "column 'n' should be a whole number from 1 to 1000000000000000 in decimal digits only"
          + " (no sign, point, exponent or leading zero), found 'sixteen'")
    ) {
      try ReportReader.read(path)
    }
  }

  /// Each case replaces the good row's `,16,0,1,delivery,time,3,1,2,2.8,3,` fields.
  @Test(
    "Numbers that are not measurements are refused, naming the column",
    arguments: [
      (",16,0,1,delivery,time,3,1,nan,2.8,3,", "'ns_median' should be a finite decimal number"),
      (",16,0,1,delivery,time,3,1,inf,2.8,3,", "'ns_median' should be a finite decimal number"),
      (",16,0,1,delivery,time,3,1,1e999,2.8,3,", "'ns_median' should be a finite decimal number"),
      (",16,0,1,delivery,time,3,1,0x10,2.8,3,", "'ns_median' should be a finite decimal number"),
      (",16,0,1,delivery,time,3,1,-2,2.8,3,", "'ns_median' should be above zero"),
      (",16,0,1,delivery,time,3,1,0,2.8,3,", "'ns_median' should be above zero"),
      (",-16,0,1,delivery,time,3,1,2,2.8,3,", "'n' should be a whole number from 1 to"),
      (",0,0,1,delivery,time,3,1,2,2.8,3,", "'n' should be a whole number from 1 to"),
      (",1.5,0,1,delivery,time,3,1,2,2.8,3,", "'n' should be a whole number from 1 to"),
      // Another spelling of 16 or of 0 would be another cell, past the duplicate check.
      (",+16,0,1,delivery,time,3,1,2,2.8,3,", "'n' should be a whole number from 1 to"),
      (",1.6e1,0,1,delivery,time,3,1,2,2.8,3,", "'n' should be a whole number from 1 to"),
      (",016,0,1,delivery,time,3,1,2,2.8,3,", "'n' should be a whole number from 1 to"),
      (",16.0,0,1,delivery,time,3,1,2,2.8,3,", "'n' should be a whole number from 1 to"),
      (",99999999999999999999,0,1,delivery,time,3,1,2,2.8,3,", "'n' should be a whole number"),
      (",16,0.0,1,delivery,time,3,1,2,2.8,3,", "'depth' should be a whole number from 0 to"),
      (",16,+0,1,delivery,time,3,1,2,2.8,3,", "'depth' should be a whole number from 0 to"),
      (",16,-0,1,delivery,time,3,1,2,2.8,3,", "'depth' should be a whole number from 0 to"),
      (",16,0,0,delivery,time,3,1,2,2.8,3,", "'threads' should be a whole number from 1 to"),
      (",16,0,2.0,delivery,time,3,1,2,2.8,3,", "'threads' should be a whole number from 1 to"),
      (",16,0,1,delivery,time,+3,1,2,2.8,3,", "'repetitions' should be a whole number from 1"),
      (",16,0,1,delivery,speed,3,1,2,2.8,3,", "metric 'speed' is not one of time, instructions"),
    ])
  func notAMeasurement(replacement: String, problem: String) throws {
    let good = Rows.report([Rows.result(Rows.plan(), [1, 2, 3])])
    let original = ",16,0,1,delivery,time,3,1,2,2.8,3,"
    #expect(good.contains(original))
    let path = Rows.write(good.replacingOccurrences(of: original, with: replacement))
    do {
      _ = try ReportReader.read(path)
      Issue.record("\(replacement) was read without complaint")
    } catch {
      #expect("\(error)".contains("\(path):2: column \(problem)") || "\(error)".contains(problem))
    }
  }

  @Test("A cell that appears twice is refused, naming both lines")
  func duplicateCell() throws {
    let text = Rows.report([
      Rows.result(Rows.plan(), [1, 2, 3]), Rows.result(Rows.plan(), [1, 2, 3]),
    ])
    let path = Rows.write(text)
    #expect(throws: ReportError.self) { try ReportReader.read(path) }
    do { _ = try ReportReader.read(path) } catch {
      #expect("\(error)".contains(":3: cell jemalloc/linked-list/notify/-/16/0 appears twice"))
    }
  }

  @Test("A cell written again with n as 1.6e1 is refused for its n, not read as another cell")
  func integerSpelling() throws {
    let text = Rows.report([
      Rows.result(Rows.plan(), [1, 2, 3]), Rows.result(Rows.plan(), [1, 2, 3]),
    ])
    var lines = text.split(separator: "\n").map(String.init)
    let original = ",16,0,1,delivery,"
    #expect(lines[2].contains(original))
    lines[2] = lines[2].replacingOccurrences(of: original, with: ",1.6e1,0,1,delivery,")
    let path = Rows.write(lines.joined(separator: "\n") + "\n")
    do {
      _ = try ReportReader.read(path)
      Issue.record("n = 1.6e1 was read as a cell of its own")
    } catch {
      #expect(
        "\(error)".hasPrefix("\(path):3: column 'n' should be a whole number from 1"), "\(error)")
      #expect("\(error)".contains("decimal digits only"), "\(error)")
    }
  }

  @Test("A schema 1 report is read, every row a time")
  func schemaOne() throws {
    let text = Rows.report([Rows.result(Rows.plan(), [1, 2, 3])])
    var lines = try CSV.records(text, file: "-").map(\.fields)
    let keep = ReportColumn.all.enumerated().filter { $0.element.since == 1 }.map(\.offset)
    lines = lines.map { fields in keep.map { fields[$0] } }
    lines[1][0] = "1"
    let path = Rows.write(lines.map { CSV.line($0) }.joined(separator: "\n") + "\n")
    let row = try #require(try ReportReader.read(path).first)
    #expect(row.metric == .time && row.nanoseconds?.median == 2 && row.schema == "1")
    #expect(Report([row]).csv == lines.map { CSV.line($0) }.joined(separator: "\n") + "\n")
  }

  @Test("An optional column left empty is written back empty, so the report reads again")
  func emptyOptionalColumns() throws {
    // Found by the report reader's fuzz target: a row with no `cores` read as 0 cores and was
    // written back as `0`, which the column refuses.
    let text = Rows.report([Rows.result(Rows.plan(), [1, 2, 3])])
    var lines = try CSV.records(text, file: "-").map(\.fields)
    for name in ["cores", "depth", "threads", "host", "cpu", "os", "swift", "build"] {
      let column = try #require(ReportColumn.all.firstIndex { $0.name == name })
      lines[1][column] = ""
    }
    let written = lines.map { CSV.line($0) }.joined(separator: "\n") + "\n"
    let report = try Report.read(csv: written, name: "empty-optional.csv")
    let again = try Report.read(csv: report.csv, name: "written")
    #expect(again == report)
    #expect(again.csv == report.csv)
  }

  @Test("A directory, a device or a FIFO is not a report")
  func notARegularFile() throws {
    // Opening a FIFO for reading would block until a writer comes: it is refused unopened.
    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(UUID().uuidString).csv"
    ).path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    for path in [FileManager.default.temporaryDirectory.path, "/dev/zero", fifo] {
      do {
        _ = try ReportReader.read(path)
        Issue.record("\(path) was read")
      } catch {
        #expect("\(error)".contains("not a regular file"))
      }
    }
  }

  @Test("A symbolic link loop is refused, saying why")
  func symbolicLinkLoop() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = directory.appendingPathComponent("a.csv").path
    let second = directory.appendingPathComponent("b.csv").path
    #expect(symlink(second, first) == 0 && symlink(first, second) == 0)
    #expect(throws: ReportError.unreadable(file: first, reason: String(cString: strerror(ELOOP)))) {
      try ReportReader.read(first)
    }
  }

  @Test("A header line of 20 MB is refused in a message cut to a line")
  func hugeHeader() throws {
    let path = Rows.write(String(repeating: "x", count: 20_000_000) + "\n1,2\n")
    defer { unlink(path) }
    do {
      _ = try ReportReader.read(path)
      Issue.record("a 20 MB header was read")
    } catch {
      let message = "\(error)"
      #expect(message.hasPrefix("\(path):1: the header is not an Observatory report"))
      #expect(message.hasSuffix("found '" + String(repeating: "x", count: 120) + "…'"))
      #expect(message.count < 1000 && !message.contains("\n"))
    }
  }

  @Test("An unterminated quote")
  func unterminatedQuote() throws {
    let good = Rows.report([Rows.result(Rows.plan(), [1, 2, 3])])
    let path = Rows.write(good + "1,\"oops\n")
    #expect(throws: ReportError.self) { try ReportReader.read(path) }
  }
}
