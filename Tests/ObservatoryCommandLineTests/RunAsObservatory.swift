import ArgumentParser

@testable import ObservatoryCommandLine

extension ParsableCommand {
  /// Runs a command parsed with `Observatory.parseAsRoot` as `observatory` does: a tool
  /// command over the built-in tool's backends, any other as it runs itself.
  func runAsObservatory() throws {
    if let command = self as? any ToolCommand {
      try command.run(with: .builtIn)
    } else {
      var command = self
      try command.run()
    }
  }
}
