import ArgumentParser
import Foundation

/// The `observatory` command: what observation strategies do and what they cost.
@main
struct Observatory: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "observatory",
    abstract: "Checks and measures ways of observing a changing value.",
    subcommands: [
      RunCommand.self, CompareCommand.self, ABCommand.self, HistoryCommand.self, TableCommand.self,
      ConformanceCommand.self, BaselineCommand.self,
      CellCommand.self, ConformanceChildCommand.self,
    ],
    defaultSubcommand: RunCommand.self)

  /// Exit status 1 for every usage or input error (argument-parser's default is 64), 2 for a
  /// regression found by `compare`, 0 otherwise.
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
    do {
      var command = try parseAsRoot()
      do {
        try command.run()
      } catch let error as ValidationError {
        // Found while running (a file, a library, the machine): the options parsed, so one
        // line without the usage summary.
        StandardOutput.writeError("observatory: error: \(error.message)\n")
        Foundation.exit(1)
      } catch let error as ToolError {
        StandardOutput.writeError("observatory: error: \(error.description)\n")
        Foundation.exit(1)
      }
    } catch {
      let code = exitCode(for: error)
      if code == .success || code.rawValue == 2 { exit(withError: error) }
      let message = fullMessage(for: error)
      if !message.isEmpty {
        StandardOutput.writeError("observatory: " + message + "\n")
      }
      Foundation.exit(1)
    }
  }
}
