import Foundation
import TestTraits
import Testing

/// The `observatory` executable `swift test` builds beside the test bundle, run as a user runs
/// it: in a directory, with arguments and an environment, its exit status and both streams
/// collected. Every test of this target starts it.
enum BuiltTool {
  /// The `observatory` executable `swift test` built beside the test bundle.
  static let tool: URL? = {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent("observatory")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
    let built = PackageDirectory.appending(".build/debug/observatory")
    return FileManager.default.isExecutableFile(atPath: built.path) ? built : nil
  }()

  /// What one run of the tool did.
  struct Run {
    var status: Int32
    var signalled: Bool
    var output: String
    var errors: String
  }

  /// A fresh directory for one case.
  static func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "observatory-hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Runs the tool in `directory` and waits; `output` replaces the captured standard output.
  static func run(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:],
    output: FileHandle? = nil, errors: FileHandle? = nil
  ) throws -> Run {
    let tool = try #require(Self.tool, "the observatory executable was not built beside the tests")
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = Self.environment(adding: environment)
    let outputPipe = Pipe()
    let errorPipe = Pipe()
    process.standardOutput = output ?? outputPipe
    process.standardError = errors ?? errorPipe
    try process.run()
    // Both pipes are read at once: a tool that fills one while the other is read to its end
    // would block for good.
    let collected = ErrorText()
    let reader = Thread {
      collected.data =
        errors == nil ? errorPipe.fileHandleForReading.readDataToEndOfFile() : Data()
      collected.done.signal()
    }
    reader.start()
    let outputData = output == nil ? outputPipe.fileHandleForReading.readDataToEndOfFile() : Data()
    collected.done.wait()
    let errorData = collected.data
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
      output: String(decoding: outputData, as: UTF8.self),
      errors: String(decoding: errorData, as: UTF8.self))
  }

  /// What a reader thread collected from standard error.
  final class ErrorText: @unchecked Sendable {
    var data = Data()
    let done = DispatchSemaphore(value: 0)
  }

  /// This process's environment with `extra`, and leak detection off in the tool when the
  /// tests run under the address sanitizer: the tool's exit is not where leaks are checked
  /// (the in-process tests are), and a leak report would replace its exit status.
  static func environment(adding extra: [String: String]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
    let asan = environment["ASAN_OPTIONS"].map { $0 + ":" } ?? ""
    environment["ASAN_OPTIONS"] = asan + "detect_leaks=0"
    return environment
  }
}
