import ArgumentParser
import ObservationHarness
import ObservationReports
import ObservatoryBuiltInRows

/// One process of the tool: the rows its commands measure and check, and the names it goes by.
///
/// ``ObservatoryTool/main(backends:includingBuiltIns:)`` makes it once, from the backends it was
/// given, and hands it to the command the arguments name (``ToolCommand``): no command reads a
/// global.
struct Tool: Sendable {
  /// The rows the commands know, made once: the backends in report order, then the reference
  /// rows.
  var rows: MeasuredRows
  /// The backends the commands know, in report order.
  var backends: [MeasuredBackend] { rows.backends }
  /// What the tool's messages start with: `observatory`, or a third party's executable name.
  var name: String
  /// What the conformance matrix calls the package whose backends must pass every rule they
  /// declare: `Observatory`, or the third party's executable name.
  var packageName: String
  /// The backends a third party's tool passed in, written in ``packageName``; `nil` in
  /// Observatory's own tool. The other `.original` backends are Observatory's built-in ones.
  var ownBackends: Set<String>?

  /// Observatory's own tool: the built-in backends.
  static var builtIn: Tool {
    Tool(
      rows: MeasuredRows(backends: MeasuredBackend.builtIns), name: "observatory",
      packageName: "Observatory", ownBackends: nil)
  }

  /// What `list` prints: the tool's rows, with who wrote each.
  ///
  /// - Complexity: O(*r* × *w*) for *r* rows and *w* workloads.
  var catalog: SweepCatalog {
    SweepCatalog(rows: rows, packageName: packageName, ownBackends: ownBackends)
  }

  /// Who wrote the `.original` backend called `backend`: ``packageName`` for the tool's own
  /// backends, Observatory for a built-in one that a third party's tool measures too.
  ///
  /// - Complexity: O(1).
  func writer(ofOriginal backend: String) -> String {
    SweepCatalog.writer(ofOriginal: backend, packageName: packageName, ownBackends: ownBackends)
  }

  /// The rows with only the backends `--backend` names, in the tool's order, or all of them
  /// when it is not given; the reference rows stay.
  ///
  /// - Throws: a `ValidationError` naming the first backend the tool does not know, and the
  ///   ones it does.
  /// - Complexity: O(*b* · *s*) for *b* backends and *s* names.
  func selectedRows(_ selection: CommaSeparated<String>?) throws -> MeasuredRows {
    guard let selection else { return rows }
    let names = backends.map(\.name)
    if let unknown = selection.elements.first(where: { !names.contains($0) }) {
      throw ValidationError(
        "--backend: unknown backend '\(unknown)'; accepted: \(names.joined(separator: ", "))")
    }
    return rows.selecting(selection.elements)
  }
}

/// A command that runs over the tool's backends and names: `Observatory.main` parses it, then
/// calls ``run(with:)`` with the tool it was handed.
protocol ToolCommand: ParsableCommand {
  /// Runs the command in `tool`.
  func run(with tool: Tool) throws
}

extension ToolCommand {
  /// Refuses to run: a tool command runs over the backends of the tool that parsed it
  /// (``run(with:)``), and no default tool is right for a third party's executable.
  /// `ParsableCommand`'s default would print the help instead, as silently.
  ///
  /// - Throws: `ValidationError` naming the command.
  func run() throws {
    throw ValidationError(
      "'\(Self._commandName)' runs over a tool's backends: call run(with:), as ObservatoryTool.main does"
    )
  }
}
