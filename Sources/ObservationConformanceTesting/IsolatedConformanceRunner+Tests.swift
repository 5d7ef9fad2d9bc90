public import Foundation
public import ObservationConformance

extension IsolatedConformanceRunner {
  /// The executable product called `name` that `swift build` put beside the running test
  /// bundle: the child-side harness of an isolated run, built because the test target depends
  /// on it.
  ///
  /// It looks in the test bundle's folder and up to three folders above it (SwiftPM's build
  /// folder holds both the bundle and the package's executables).
  ///
  /// - Throws: `ConformanceIsolationError.childDidNotStart(_:)` naming the folders searched
  ///   if there is no such executable.
  /// - Complexity: O(1) file-system look-ups.
  public static func executableBuiltBesideTests(named name: String) throws -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    var searched: [String] = []
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      searched.append(directory.path)
      directory.deleteLastPathComponent()
    }
    throw ConformanceIsolationError.childDidNotStart(
      "no executable '\(name)' in \(searched.joined(separator: ", ")): add it to the test"
        + " target's dependencies so that it is built")
  }
}
