import ArgumentParser
import Foundation
import ObservationBackends
import ObservationCore
import ObservationHarness

/// Parses `--backend a,b` against the catalog.
enum BackendSelection {
  /// The named backends in catalog order, or all of them when `list` is `nil`.
  ///
  /// - Throws: a `ValidationError` naming the unknown backend and listing the accepted names.
  static func parse(_ list: String?) throws -> [any ObservationBackend] {
    guard let list else { return BackendCatalog.all }
    let accepted = BackendCatalog.names.joined(separator: ", ")
    guard !list.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw ValidationError("--backend is empty; accepted: \(accepted)")
    }
    let names = list.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    for name in names where BackendCatalog.backend(named: name) == nil {
      throw ValidationError(
        "unknown backend '\(name)' in --backend; accepted: \(accepted)")
    }
    return BackendCatalog.all.filter { names.contains($0.name) }
  }
}
