import ArgumentParser

/// The `observatory` command: what observation strategies do and what they cost.
@main
struct Observatory: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "observatory",
    abstract: "Checks and measures ways of observing a changing value.",
    subcommands: [ConformanceCommand.self])
}
