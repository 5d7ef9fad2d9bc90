import ArgumentParser
import Foundation
import ObservationHarness

/// `--backend a,b`: names of the backends this tool measures (``ObservatoryTool/backends``).
enum BackendSelection {
  /// Parses `--backend` for `@Option(transform:)`, against the backends known when the command
  /// line is parsed.
  ///
  /// - Throws: a `ValidationError` naming the unknown, empty or repeated backend and listing
  ///   the accepted names.
  @Sendable static func parse(_ text: String) throws -> CommaSeparated<String> {
    let names = ObservatoryTool.backends.map(\.name)
    return try CommaSeparated(
      parsing: text, entry: "backend", accepted: names.joined(separator: ", "),
      element: { names.contains($0) ? $0 : nil })
  }

  /// The named backends in the tool's order, or all of them when `names` is `nil`.
  static func rows(_ names: CommaSeparated<String>?) -> [MeasuredBackend] {
    let known = ObservatoryTool.backends
    guard let names else { return known }
    return known.filter { names.elements.contains($0.name) }
  }
}
