import ArgumentParser
import Foundation
import ObservationBackends
import ObservationConformance
import ObservationCore

/// `observatory conformance`: runs the conformance suite over the built-in backends.
struct ConformanceCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "conformance",
    abstract: "Run the conformance suite over the built-in backends and print or write the matrix.",
    discussion: """
      Exits non-zero if a backend written in this package fails a rule it declares. Backends
      built on other libraries (OpenCombine) may fail rules: those failures are findings and are
      shown in the matrix.
      """)

  @Option(name: .long, help: "Only these backends (comma-separated names).")
  var backend: String?

  @Option(
    name: .long,
    help:
      "Directory to write conformance.md and conformance.csv into (both or neither). Prints Markdown to stdout when absent."
  )
  var outputDirectory: String?

  @Flag(name: .long, help: "Replace conformance.md and conformance.csv if they exist.")
  var force = false

  @Flag(name: .long, help: "Print each backend's full report to stderr.")
  var verbose = false

  func run() throws {
    let selected = try BackendSelection.parse(backend)
    let files = outputDirectory.map { directory in
      ["conformance.md", "conformance.csv"].map {
        OutputFile(
          (directory as NSString).appendingPathComponent($0), replacing: force,
          option: "--output-directory")
      }
    }
    for file in files ?? [] { try file.check() }
    var reports: [ConformanceReport] = []
    var ownFailures: [String] = []
    for entry in selected {
      StandardOutput.writeError("conformance: \(entry.name)…\n")
      let report = ConformanceSuite.run(entry)
      if verbose { StandardOutput.writeError(report.text + "\n") }
      if BackendCatalog.isOwnBackend(entry.name) {
        ownFailures += report.failures.map {
          "\(entry.name) fails \($0.rule.id): \($0.outcome.details)"
        }
      }
      reports.append(report)
    }
    let matrix = ConformanceMatrix(reports)
    let markdown = ConformanceMatrixDocument.markdown(for: matrix)
    if let files {
      try OutputFile.writeAll([(files[0], markdown), (files[1], matrix.csv)])
    } else {
      try StandardOutput.write(markdown)
    }
    if !ownFailures.isEmpty {
      StandardOutput.writeError(
        "backends we wrote fail rules they declare:\n" + ownFailures.joined(separator: "\n")
          + "\n")
      throw ExitCode.failure
    }
  }
}
