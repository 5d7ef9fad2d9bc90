import ArgumentParser
import Foundation
import ObservationHarness

/// The `observatory` command: what observation strategies do and what they cost.
struct Observatory: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "observatory",
    abstract: "Checks and measures ways of observing a changing value.",
    subcommands: [
      RunCommand.self, CompareCommand.self, ABCommand.self, HistoryCommand.self, TableCommand.self,
      ReportCommand.self, ListCommand.self, ConformanceCommand.self,
      ConformanceTestsCommand.self, BaselineCommand.self, CellCommand.self,
      ConformanceChildCommand.self,
    ],
    defaultSubcommand: RunCommand.self)

  /// Exit status 1 for every usage or input error (argument-parser's default is 64), 2 for a
  /// regression found by `compare`, `ab` or `baseline check`, 0 otherwise. Every error is one line,
  /// `observatory: error: ...`, without argument-parser's usage summary; `--help` prints the
  /// help.
  static func main() {
    // A closed pipe is an error to report (exit 1), not a signal that kills the process.
    signal(SIGPIPE, SIG_IGN)
    // A cell or conformance child process is stopped by its parent-death signal instead (and
    // by SIGTERM's default action); it keeps no files.
    let children = [
      CellCommand.configuration.commandName, ConformanceChildCommand.configuration.commandName,
    ]
    if !children.contains(CommandLine.arguments.dropFirst().first) {
      Interruption.install()
    }
    var command: any ParsableCommand
    do {
      // A cell parses only its own options, so that the options the other commands declare do
      // not change the heap it measures in: where objects land decides how many instructions
      // a table keyed by their addresses spends, and the instruction gate compares those.
      if CommandLine.arguments.dropFirst().first == CellCommand.configuration.commandName {
        command = try CellCommand.parseAsRoot(Array(CommandLine.arguments.dropFirst(2)))
      } else {
        command = try parseAsRoot()
      }
    } catch {
      // Help, a version, or a usage error: only the last is written here, in one line.
      let code = exitCode(for: error)
      if code == .success || code.rawValue == 2 { exit(withError: error) }
      fail(message(for: error))
    }
    do {
      try command.run()
    } catch let error as ExitCode {
      // A regression (2), or a failure already reported (1).
      Foundation.exit(error.rawValue)
    } catch let error as ValidationError {
      // Found while running (a file, a library, the machine): the options parsed.
      fail(error.message)
    } catch let error as ToolError {
      fail(error.description)
    } catch {
      // `--help` and `help` reach here, from the help command's run: they print the help.
      if exitCode(for: error) == .success { exit(withError: error) }
      // A stream that could not be written, or anything else: one line, exit status 1.
      fail(message(for: error))
    }
  }

  /// Writes `message` as one line, `observatory: error: ...`, and exits with status 1.
  static func fail(_ message: String) -> Never {
    // ArgumentParser lists six or more accepted values a line each, indented.
    let line = message.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    if !line.isEmpty { StandardOutput.writeError("observatory: error: \(line)\n") }
    Foundation.exit(1)
  }
}
