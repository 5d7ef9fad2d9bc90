import Foundation
import Testing

@testable import ObservatoryCommandLine

@Suite("Output files: checked before the work")
struct OutputFileTests {
  static func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "observatory-output-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    return url
  }

  /// What `check()` throws for `path`, or `nil` if it accepts it.
  static func refusal(_ path: String) -> String? {
    do {
      try OutputFile(path, replacing: false).check()
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test("A directory on the way that is a symbolic link to a directory is followed")
  func linkedDirectory() throws {
    let directory = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let disk = directory.appendingPathComponent("disk")
    try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: false)
    #expect(symlink(disk.path, directory.appendingPathComponent("Results").path) == 0)

    let report = directory.path + "/Results/r.csv"
    #expect(Self.refusal(report) == nil)
    #expect(try OutputFile(report, replacing: false).write("mine\n") == report)
    #expect(
      try String(contentsOf: disk.appendingPathComponent("r.csv"), encoding: .utf8) == "mine\n")
    // So is one further up, above directories still to be made.
    #expect(Self.refusal(directory.path + "/Results/studies/2026/r.csv") == nil)

    // A link to nothing cannot be made a directory: refused now, not after the work.
    #expect(symlink(directory.path + "/gone", directory.appendingPathComponent("lost").path) == 0)
    let lost = try #require(Self.refusal(directory.path + "/lost/sub/r.csv"))
    #expect(
      lost.hasSuffix("/lost' is a symbolic link to nothing; a directory cannot be made there"))
  }

  /// A path of `length` bytes under `base`: directories of at most 200-byte names.
  static func directory(under base: String, length: Int) -> String {
    var path = base
    while length - path.utf8.count > 201 { path += "/" + String(repeating: "d", count: 200) }
    return path + "/" + String(repeating: "e", count: length - path.utf8.count - 1)
  }

  @Test("A path whose temporary file beside it would not fit is refused before the work")
  func temporaryNameLength() throws {
    let base = FileManager.default.temporaryDirectory.path + "/observatory-\(UUID().uuidString)"
    // The kept old file, `.observatory-` + 13 digits + `.old`, is the longest name beside it.
    let fits = Self.directory(under: base, length: OutputFile.longestPath - 31) + "/r.csv"
    #expect(Self.refusal(fits) == nil)
    let tooLong = Self.directory(under: base, length: OutputFile.longestPath - 30) + "/r.csv"
    #expect(tooLong.utf8.count < OutputFile.longestPath)
    let message = try #require(Self.refusal(tooLong))
    #expect(
      message.hasSuffix(
        "': the path is 4071 bytes, and the temporary file written beside it would be up to 4096;"
          + " at most 4095 fit, so the directory may be at most 4064 bytes"), "\(message)")
    // The path in the message is cut to its ends.
    #expect(message.count < 400, "\(message)")
  }
}
