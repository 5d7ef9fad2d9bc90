import ArgumentParser
import Foundation
import ObservationHarness

/// The whole `observatory` tool as a function, over any backends.
///
/// The `observatory` executable calls ``main(backends:includingBuiltIns:)`` with no backends. A
/// third party measures its own backends with a small executable target of its own:
///
/// ```swift
/// import ObservatoryCommandLine
/// import ObservationHarness
///
/// @main enum Bench {
///   static func main() {
///     ObservatoryTool.main(backends: [MeasuredBackend(MyBackend())], includingBuiltIns: true)
///   }
/// }
/// ```
///
/// and gets every command (`run`, `compare`, `ab`, `history`, `table`, `report`, `list`,
/// `conformance`, `baseline`) over its backends, side by side with the built-in ones and the
/// reference rows, in the same reports. Cells and conformance children run in fresh processes
/// of that same executable, so they know the same backends.
public enum ObservatoryTool {
  /// Parses the process's arguments, runs the command they name over `backends` (after the
  /// built-in ones when `includingBuiltIns`) and exits: status 0, 1 for a usage or input error,
  /// 2 for a regression found by `compare`, `ab` or `baseline check`, 4 for cells `compare` or
  /// `ab` could not tell from noise (0 with `--inconclusive-ok`).
  ///
  /// A backend's name must be unique among the backends and the reference rows, and
  /// filename-safe (lower-case letters, digits and `-`); otherwise the tool exits with status 1
  /// and says which name is wrong.
  public static func main(
    backends: [MeasuredBackend] = [], includingBuiltIns: Bool = true
  ) -> Never {
    var tool = Tool.builtIn
    tool.rows = MeasuredRows(backends: (includingBuiltIns ? tool.backends : []) + backends)
    if !backends.isEmpty {
      tool.name = CommandLine.arguments.first.map(basename) ?? tool.name
      tool.packageName = "this package (\(tool.name))"
      tool.ownBackends = Set(backends.map(\.name))
    }
    if let problem = problem(with: tool.rows) { Observatory.fail(problem, tool: tool) }
    Observatory.main(tool)
  }

  /// What is wrong with the names of the backends of `rows`, or `nil`.
  static func problem(with rows: MeasuredRows) -> String? {
    var seen = Set(rows.references.map(\.name))
    let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
    for row in rows.backends {
      if row.name.isEmpty || !row.name.allSatisfy(allowed.contains) {
        return "backend name '\(row.name)' must be lower-case letters, digits and '-'"
      }
      if !seen.insert(row.name).inserted {
        return "backend name '\(row.name)' is used twice (or by a reference row); names must be"
          + " unique"
      }
    }
    return nil
  }

  private static func basename(_ path: String) -> String {
    (path as NSString).lastPathComponent
  }
}
