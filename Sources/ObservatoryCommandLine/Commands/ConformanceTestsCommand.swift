import ArgumentParser
import Foundation
import ObservationConformance

/// `observatory conformance-tests`: prints Swift source with one Swift Testing test per
/// conformance rule, for a test target that wants each rule as its own `<testcase>` in
/// `--xunit-output` (a parameterized test is one).
struct ConformanceTestsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "conformance-tests",
    abstract: "Print a Swift Testing file with one test per conformance rule.",
    discussion: """
      Swift Testing writes a parameterized test as one <testcase> of --xunit-output; this \
      file declares a test function per rule, so the XML names every rule. Commit it in your \
      test target, beside your backend, and regenerate it when the suite changes.
      """)

  @Option(help: "The name of the generated @Suite struct (a Swift identifier).")
  var suiteName: String

  @Option(help: "A Swift expression that makes your backend, e.g. 'MyBackend()'.")
  var backend: String

  func validate() throws {
    let identifier = suiteName.unicodeScalars
    guard let first = identifier.first,
      first == "_" || first.properties.isXIDStart,
      identifier.allSatisfy({ $0 == "_" || $0.properties.isXIDContinue })
    else {
      throw ValidationError(
        "--suite-name must be a Swift identifier (letters, digits and _; not starting with a"
          + " digit), not '\(suiteName)'")
    }
    guard !backend.trimmingCharacters(in: .whitespaces).isEmpty, !backend.contains("\n") else {
      throw ValidationError("--backend must be a one-line Swift expression, e.g. 'MyBackend()'")
    }
  }

  func run() throws {
    try StandardOutput.write(ConformanceTestSource(suiteName: suiteName, backend: backend).text)
  }
}
