import ArgumentParser
import Foundation
import ObservationHarness

/// Parses `--backend a,b` against the backends this tool measures (``ObservatoryTool/backends``).
enum BackendSelection {
  /// The named backends in the tool's order, or all of them when `list` is `nil`.
  ///
  /// - Throws: a `ValidationError` naming the unknown backend and listing the accepted names.
  static func parse(_ list: String?) throws -> [MeasuredBackend] {
    let known = ObservatoryTool.backends
    guard let list else { return known }
    let accepted = known.map(\.name).joined(separator: ", ")
    guard !list.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw ValidationError("--backend is empty; accepted: \(accepted)")
    }
    let names = list.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    for name in names where known.row(named: name) == nil {
      throw ValidationError(
        "unknown backend '\(name)' in --backend; accepted: \(accepted)")
    }
    return known.filter { names.contains($0.name) }
  }
}
