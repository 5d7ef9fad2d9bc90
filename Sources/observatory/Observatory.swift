import ArgumentParser
import Foundation

/// The `observatory` command: what observation strategies do and what they cost.
@main
struct Observatory: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "observatory",
    abstract: "Checks and measures ways of observing a changing value.",
    subcommands: [
      RunCommand.self, CompareCommand.self, HistoryCommand.self, TableCommand.self,
      ConformanceCommand.self,
      CellCommand.self,
    ],
    defaultSubcommand: RunCommand.self)

  /// Exit status 1 for every usage or input error (argument-parser's default is 64), 2 for a
  /// regression found by `compare`, 0 otherwise.
  static func main() {
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      let code = exitCode(for: error)
      if code == .success || code.rawValue == 2 { exit(withError: error) }
      let message = fullMessage(for: error)
      if !message.isEmpty {
        FileHandle.standardError.write(Data(("observatory: " + message + "\n").utf8))
      }
      Foundation.exit(1)
    }
  }
}
