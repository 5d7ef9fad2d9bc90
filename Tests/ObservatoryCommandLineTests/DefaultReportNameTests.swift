import Foundation
import Testing

@testable import ObservatoryCommandLine

@Suite("Default report names")
struct DefaultReportNameTests {
  @Test(
    "The names of quick and partial sweeps' reports are told from the main job's",
    arguments: [
      ("Results/2026-11-23_abc_vm.csv", false),
      ("Results/2026-11-23_abc_vm_2.csv", false),
      ("Results/2026-11-23_abc_vm_instructions.csv", false),
      ("Results/2026-11-23_abc_vm_instructions_12.csv", false),
      ("2026-11-23_abc_vm_quick.csv", true),
      ("Results/2026-11-23_abc_vm_quick_2.csv", true),
      ("Results/2026-11-23_abc_vm_partial.csv", true),
      ("Results/2026-11-23_abc_vm_quick_partial_instructions_7.csv", true),
      ("Results/quick/2026-11-23_abc_vm.csv", false),
      ("Results/2026-11-23_abc_vm_quick.md", false),
      ("Results/2026-11-23_abc_vm_partial_x.csv", false),
    ])
  func narrowSweeps(path: String, narrow: Bool) {
    #expect(DefaultReportName.isNarrowSweep(path) == narrow)
  }

  @Test("A default name taken while the sweep ran takes the next free number; nothing is replaced")
  func takenMeanwhile() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "observatory-names-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let name = DefaultReportName(stem: directory.path + "/Results/2026-11-23_abc_vm")
    let number = try #require(name.firstFree())
    #expect(number == 1)
    let file = OutputFile(name, number: number)
    try file.check()
    // Another run takes the name, and a dangling link the next, while this one measures.
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("Results"), withIntermediateDirectories: true)
    try "theirs\n".write(toFile: name.path(1), atomically: false, encoding: .utf8)
    #expect(symlink(directory.path + "/nowhere", name.path(2)) == 0)
    let written = try file.write("mine\n")
    #expect(written == name.path(3))
    #expect(try String(contentsOfFile: name.path(1), encoding: .utf8) == "theirs\n")
    #expect(try String(contentsOfFile: name.path(3), encoding: .utf8) == "mine\n")
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/nowhere"))
    #expect(name.firstFree() == 4)
  }

  @Test("A file named with --output that appeared while the command ran is not replaced")
  func namedFileAppeared() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "observatory-names-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("r.csv").path
    let file = OutputFile(path, replacing: false)
    try file.check()
    try "theirs\n".write(toFile: path, atomically: false, encoding: .utf8)
    #expect(
      throws: ToolError("--output '\(path)': appeared while this command ran; nothing was replaced")
    ) {
      try file.write("mine\n")
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "theirs\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["r.csv"])
  }
}
