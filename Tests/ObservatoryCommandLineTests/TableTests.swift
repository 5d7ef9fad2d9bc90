import ArgumentParser
import Foundation
import ObservationWorkloads
import ReportFixtures
import SweepFixtures
import Testing

@testable import ObservationHarness
@testable import ObservationReports
@testable import ObservatoryCommandLine

@Suite("table")
struct TableTests {
  /// A report of one backend at n = 16 and 256: notify, subscribe and cancel (random).
  static let report: String = {
    var cells: [(Cell, CellRunner.Result?)] = []
    for n in [16, 256] {
      var cancel = Rows.plan(workload: .cancel, n: n)
      cancel.pattern = .random
      cells += [
        (Rows.plan(n: n), .finished(Rows.outcome([10, 11, 12]))),
        (Rows.plan(workload: .subscribe, n: n), .finished(Rows.outcome([20, 21, 22]))),
        (cancel, .finished(Rows.outcome([30, 31, 32]))),
      ]
    }
    return Rows.write(Rows.report(cells))
  }()

  /// The message of the error the table command with `arguments` throws, parsing or running.
  static func refusal(_ arguments: [String]) -> String? {
    do {
      _ = try TableCommand.parse(arguments).table()
      return nil
    } catch {
      return Observatory.message(for: error)
    }
  }

  @Test("A report's rows at the sizes asked for: one line per backend, a column per cost")
  func rows() throws {
    let table = try TableCommand.parse([Self.report, "--sizes", "256,16"]).table()
    let lines = table.split(separator: "\n")
    #expect(lines.count == 3, "\(table)")
    #expect(
      lines[0].hasPrefix("| backend | notify n=256 | subscribe n=256 | cancel (random) n=256"))
    #expect(
      lines[2] == "| `linked-list` | 11.0 ns | 21.0 ns | 31.0 ns | 11.0 ns | 21.0 ns | 31.0 ns |")
  }

  @Test("An allocator the report has no row of is refused, naming the ones it has")
  func missingAllocator() throws {
    let message = try #require(
      Self.refusal([Self.report, "--sizes", "16", "--allocator", "system"]))
    #expect(message == "\(Self.report) has no row of allocator 'system'; it has: jemalloc")
  }

  @Test("Sizes the report lacks are refused, saying what was asked and what it has")
  func missingSizes() throws {
    let message = try #require(Self.refusal([Self.report, "--sizes", "16,1024,64"]))
    #expect(
      message
        == "--sizes asks for n = 1024, 64; \(Self.report) has notify, subscribe or cancel"
        + " (random) rows of allocator 'jemalloc' at n = 16, 256 only")
    // The default sizes, none of which this report has, are no table either.
    let byDefault = try #require(Self.refusal([Self.report]))
    #expect(byDefault.hasPrefix("none of the default sizes (n = 1024, 1048576)"), "\(byDefault)")
    #expect(byDefault.hasSuffix("at n = 16, 256; choose with --sizes"), "\(byDefault)")
  }

  @Test("A report without the table's workloads is refused, saying which they are")
  func noShownWorkload() throws {
    let churn = Rows.write(
      Rows.report([(Rows.plan(workload: .churn), .finished(Rows.outcome([1, 2, 3])))]))
    let message = try #require(Self.refusal([churn, "--sizes", "16"]))
    #expect(
      message
        == "\(churn) has no notify, subscribe or cancel (random) row of allocator 'jemalloc',"
        + " the workloads the table shows")
  }

  @Test("An empty --sizes, or a size given twice, is refused before the report is read")
  func badSizes() throws {
    let empty = try #require(Self.refusal(["/nonexistent.csv", "--sizes", ""]))
    #expect(
      empty
        == "The value '' is invalid for '--sizes <sizes>': no size given; accepted:"
        + " comma-separated integers from 1 to 16777216")
    let twice = try #require(Self.refusal(["/nonexistent.csv", "--sizes", "16,16"]))
    #expect(twice == "The value '16,16' is invalid for '--sizes <sizes>': size '16' is given twice")
  }
}
