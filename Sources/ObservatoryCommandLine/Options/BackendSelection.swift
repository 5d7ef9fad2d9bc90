import ArgumentParser

/// `--backend a,b`: the names of backends, checked against the tool's after parsing
/// (``Tool/rows(_:)``), since the options are parsed before a command is handed its tool.
enum BackendSelection {
  /// Parses `--backend` for `@Option(transform:)`: names, none empty and none twice.
  ///
  /// - Throws: a `ValidationError` naming the empty or repeated entry.
  @Sendable static func parse(_ text: String) throws -> CommaSeparated<String> {
    try CommaSeparated(
      parsing: text, entry: "backend", accepted: "backend names (`list` prints them)",
      element: { $0 })
  }
}
