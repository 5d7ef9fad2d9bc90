import ArgumentParser
import Testing

@testable import ObservatoryCommandLine

@Suite("Tool commands")
struct ToolCommandTests {
  @Test(
    "A tool command run without a tool (ArgumentParser's run()) refuses, naming the command, instead of running over the built-in backends"
  )
  func runWithoutATool() throws {
    var command = try Observatory.parseAsRoot(["list"])
    #expect(command is any ToolCommand)
    let error = try #require(throws: ValidationError.self) { try command.run() }
    #expect(error.message.contains("'list' runs over a tool's backends"), "\(error.message)")
  }
}
