import ArgumentParser
import Foundation
import ObservationConformance
import ObservationHarness

/// The `observatory` command: what observation strategies do and what they cost.
struct Observatory: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "observatory",
    abstract: "Checks and measures ways of observing a changing value.",
    subcommands: [
      RunCommand.self, CompareCommand.self, ABCommand.self, HistoryCommand.self, TableCommand.self,
      ReportCommand.self, ListCommand.self, ConformanceCommand.self,
      ConformanceTestsCommand.self, BaselineCommand.self, ExportCommand.self,
    ],
    defaultSubcommand: RunCommand.self)

  /// Exits with an ``ExitStatus``: 1 for every usage or input error (argument-parser's default is
  /// 64), 2 for a regression found by `compare`, `ab` or `baseline check`, 4 for cells `compare`
  /// or `ab` could not tell from noise, 0 otherwise. Every error is one line,
  /// `observatory: error: ...`, without argument-parser's usage summary; `--help` prints the
  /// help.
  static func main(_ tool: Tool) -> Never {
    // A closed pipe is an error to report (exit 1), not a signal that kills the process.
    signal(SIGPIPE, SIG_IGN)
    // The two child processes the tool starts of itself each read one request type, before
    // and without ArgumentParser: a cell (`CellRequest`), so that the options the other
    // commands declare do not change the heap it measures in, and a conformance child
    // (`ConformanceChildRequest`). Neither keeps files: a child is stopped by its parent-death
    // signal (and by SIGTERM's default action), not by the tool's handlers.
    switch CommandLine.arguments.dropFirst().first {
    case CellRequest.subcommand:
      runCell(CommandLine.arguments.dropFirst(2), tool: tool)
    case ConformanceChildRequest.subcommand:
      runConformanceChild(CommandLine.arguments.dropFirst(2), tool: tool)
    default:
      Interruption.install(toolName: tool.name)
    }
    var command: any ParsableCommand
    do {
      command = try parseAsRoot()
    } catch {
      // Help, a version, or a usage error: only the last is written here, in one line.
      let code = exitCode(for: error)
      if code == .success || code.rawValue == ExitStatus.regression.rawValue {
        exit(withError: error)
      }
      fail(message(for: error), tool: tool)
    }
    do {
      if let command = command as? any ToolCommand {
        try command.run(with: tool)
      } else {
        try command.run()
      }
    } catch let error as ExitCode {
      // A verdict's status (a regression, inconclusive cells), or a failure already reported.
      Foundation.exit(error.rawValue)
    } catch let error as ValidationError {
      // Found while running (a file, a library, the machine): the options parsed.
      fail(error.message, tool: tool)
    } catch let error as ToolError {
      fail(error.description, tool: tool)
    } catch let error as HarnessError {
      fail(error.description, tool: tool)
    } catch {
      // `--help` and `help` reach here, from the help command's run: they print the help.
      if exitCode(for: error) == .success { exit(withError: error) }
      // A stream that could not be written, or anything else: one line, exit status 1.
      fail(message(for: error), tool: tool)
    }
    Foundation.exit(ExitStatus.success.rawValue)
  }

  /// A cell process (`observatory cell`, started by a sweep): measures the cell the arguments
  /// ask for in this process and prints its outcome as JSON. One process per cell, because
  /// heap history from earlier cells skews later ones.
  ///
  /// Exits with status 1 and one line for a bad request or a cell that cannot be measured,
  /// silently when the sweep is gone, and with ``CellChild/incompatibleExitStatus`` for a
  /// request of another build.
  static func runCell(_ arguments: ArraySlice<String>, tool: Tool) -> Never {
    let outcome: CellOutcome
    do {
      let request = try CellRequest(arguments: arguments)
      outcome = try CellChild.run(request, among: tool.rows)
    } catch let error as CellRequestError {
      if case .incompatible = error {
        StandardOutput.writeError(BoundedLine.shortened("\(tool.name): error: \(error)") + "\n")
        Foundation.exit(CellChild.incompatibleExitStatus)
      }
      fail(error.description, tool: tool)
    } catch CellChildError.parentGone {
      Foundation.exit(ExitStatus.failure.rawValue)
    } catch {
      fail("\(error)", tool: tool)
    }
    do {
      try StandardOutput.write(CellChild.reply(outcome))
    } catch {
      fail(message(for: error), tool: tool)
    }
    Foundation.exit(ExitStatus.success.rawValue)
  }

  /// A conformance child (`observatory conformance-child`, started by `conformance`): runs the
  /// rules of the backend the request names in this process and streams their outcomes (see
  /// `ConformanceChild`).
  ///
  /// Exits with status 1 and one line for a bad or incompatible request or an unknown backend.
  static func runConformanceChild(_ arguments: ArraySlice<String>, tool: Tool) -> Never {
    do {
      let request = try ConformanceChildRequest(arguments: arguments)
      guard let backend = tool.backends.row(named: request.backend)?.backend else {
        fail(
          "unknown backend '\(request.backend)' for a conformance child; accepted: "
            + tool.backends.filter { $0.backend != nil }.map(\.name).joined(separator: ", "),
          tool: tool)
      }
      try ConformanceChild.run(backend, request: request)
    } catch {
      fail("\(error)", tool: tool)
    }
    Foundation.exit(ExitStatus.success.rawValue)
  }

  /// Writes `message` as one line, `observatory: error: ...` (`tool`'s name), and exits with
  /// status 1.
  static func fail(_ message: String, tool: Tool) -> Never {
    // ArgumentParser lists six or more accepted values a line each, indented.
    let line = BoundedLine.shortened(
      message.split(whereSeparator: \.isNewline)
        .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " "))
    if !line.isEmpty { StandardOutput.writeError("\(tool.name): error: \(line)\n") }
    Foundation.exit(ExitStatus.failure.rawValue)
  }
}
