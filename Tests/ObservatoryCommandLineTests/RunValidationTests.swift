import ArgumentParser
import Foundation
import ReportFixtures
import Testing

@testable import ObservationHarness
@testable import ObservationReports
@testable import ObservatoryCommandLine

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
  func badInput() throws {
    // Backends are the tool's, so their names are checked when the command is handed its tool,
    // before it measures or writes anything.
    let parsed = try #require(
      try Observatory.parseAsRoot(["run", "--allow-debug", "--backend", "array,nope"])
        as? RunCommand)
    let error = #expect(throws: ValidationError.self) {
      try Tool.builtIn.selectedRows(parsed.selection.backend)
    }
    #expect(
      error?.message == "--backend: unknown backend 'nope'; accepted: "
        + Tool.builtIn.backends.map(\.name).joined(separator: ", "))
    Self.rejects(
      ["run", "--allow-debug", "--workload", "spin"], mentioning: "unknown workload 'spin'")
    Self.rejects(["run", "--allow-debug", "--sizes", "16,zero"], mentioning: "bad size 'zero'")
    Self.rejects(["run", "--allow-debug", "--sizes", "0"], mentioning: "bad size '0'")
    Self.rejects(["run", "--allow-debug", "--depths", "3,0"], mentioning: "bad depth '0'")
    Self.rejects(["run", "--allow-debug", "--depths", "65"], mentioning: "bad depth '65'")
    Self.rejects(
      ["run", "--allow-debug", "--allocator", "tcmalloc"],
      mentioning: "The value 'tcmalloc' is invalid for '--allocator <allocator>'. Please provide"
        + " one of 'system', 'jemalloc' or 'all'.")
  }

  @Test("An empty entry or an entry given twice in a list is refused, naming the option and entry")
  func badLists() throws {
    Self.rejects(
      ["run", "--allow-debug", "--sizes", "1,,2"],
      mentioning: "The value '1,,2' is invalid for '--sizes <sizes>': entry 2 is empty; accepted:"
        + " comma-separated integers from 1 to 16777216")
    Self.rejects(
      ["run", "--allow-debug", "--workload", "notify, notify"],
      mentioning: "The value 'notify, notify' is invalid for '--workload <workload>': workload"
        + " 'notify' is given twice")
    Self.rejects(
      ["run", "--allow-debug", "--backend", "array,array"],
      mentioning: "'--backend <backend>': backend 'array' is given twice")
    Self.rejects(
      ["ab", "--base", "/bin/true", "--candidate", "/bin/true", "--depths", "2,"],
      mentioning: "'--depths <depths>': entry 2 is empty")
    // A list parses once, into values; the backends keep the tool's order.
    let command = try Observatory.parseAsRoot(
      ["run", "--allow-debug", "--backend", " array ,linked-list", "--sizes", "256, 16"])
    let run = try #require(command as? RunCommand)
    let selected = try Tool.builtIn.selectedRows(run.selection.backend)
    #expect(selected.backends.map(\.name) == ["linked-list", "array"])
    #expect(selected.references.map(\.name) == ReferenceRow.names)
    #expect(run.selection.plannedSizes == [256, 16])
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
