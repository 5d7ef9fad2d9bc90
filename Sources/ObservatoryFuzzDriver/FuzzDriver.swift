import CFuzzerDriver
import Foundation

/// The `main` of a fuzz executable: libFuzzer's driver when the executable is linked with
/// `-sanitize=fuzzer`, a replay of given inputs otherwise.
///
/// A fuzz executable's `main.swift` is one call:
///
/// ```swift
/// let fuzzer = try DifferentialFuzzer(MyBackend())
/// FuzzDriver.main { input in
///   if let finding = fuzzer.check(input) { throw finding }
/// }
/// ```
///
/// Built with `swift build -Xswiftc -sanitize=fuzzer,address --product my-fuzz`, it is a
/// libFuzzer executable: its arguments are libFuzzer's (corpus folders, `-max_total_time=60`,
/// `-runs=...`), and an input whose check throws (or traps) is a finding, written as
/// `crash-<hash>` and reported by libFuzzer. Built any other way, it checks every file named,
/// and every file in a folder named, prints a line per finding, and exits with 1 if there was
/// one: the same executable replays a finding after the fault is fixed.
///
/// SwiftPM names an executable's entry point after its module and links `main` to it, so the
/// executable keeps its own `main` under libFuzzer and starts libFuzzer's driver from it
/// (`LLVMFuzzerRunDriver`, found through a weak reference).
public enum FuzzDriver {
  /// The check of the running executable, for the driver's C callback, which captures
  /// nothing. Set once, before the driver starts.
  nonisolated(unsafe) private static var check: (([UInt8]) throws -> Void)?

  /// Runs `check` on every input, as libFuzzer's driver or as a replay (see the type's
  /// description); never returns.
  ///
  /// - Parameter check: Reads one input; throws (or traps) on a finding.
  /// - Complexity: libFuzzer's: until its limits (`-max_total_time`, `-runs`) or a finding.
  public static func main(_ check: @escaping ([UInt8]) throws -> Void) -> Never {
    if observatory_fuzzer_is_linked() != 0 {
      Self.check = check
      var argc = CommandLine.argc
      var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
      exit(
        observatory_run_fuzzer(&argc, &argv) { data, size in
          let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
          do {
            try FuzzDriver.check!(input)
          } catch {
            // libFuzzer records the input of a trap with its stack.
            fatalError("finding: \(error)")
          }
          return 0
        })
    }
    exit(replay(CommandLine.arguments.dropFirst(), check: check))
  }

  /// Checks every file of `paths` (a folder's files, sorted); returns the exit status.
  static func replay(_ paths: ArraySlice<String>, check: ([UInt8]) throws -> Void) -> Int32 {
    guard !paths.isEmpty else {
      write("give the inputs to replay: files, or folders of them\n")
      return 1
    }
    var checked = 0
    var findings = 0
    for path in paths {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        write("\(path): no such file\n")
        return 1
      }
      let files =
        isFolder.boolValue
        ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
          .map { (path as NSString).appendingPathComponent($0) } : [path]
      for file in files {
        guard let data = FileManager.default.contents(atPath: file) else { continue }
        checked += 1
        do { try check(Array(data)) } catch {
          findings += 1
          write("\(file): \(error)\n")
        }
      }
    }
    write("\(checked) inputs checked, \(findings) findings\n")
    return findings == 0 ? 0 : 1
  }

  /// Writes to standard error, ignoring a stream that is closed or full.
  private static func write(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { Foundation.write(STDERR_FILENO, $0.baseAddress, $0.count) }
  }
}
