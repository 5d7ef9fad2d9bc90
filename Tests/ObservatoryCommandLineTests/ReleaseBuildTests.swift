import ArgumentParser
import Foundation
import TestTraits
import Testing

@testable import ObservatoryCommandLine

/// The release build the README's main command makes is the one the tool asks for wherever it
/// names a build: a debug build's refusal, the instruction gate's messages and `ab`'s builds.
@Suite("the README's release build")
struct ReleaseBuildTests {
  static let readme = PackageDirectory.appending("README.md")

  @Test("The README's main job is the build the tool names, then the built tool")
  func readmeMainJob() throws {
    let text = try String(contentsOf: Self.readme, encoding: .utf8)
    let mainJob = text.split(separator: "\n").filter { $0.contains("# the main job") }
    #expect(mainJob.count == 1, "\(mainJob)")
    let command = mainJob.first.map {
      String($0.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces)
    }
    #expect(command == ReleaseBuild.then())
    // Every target of the package does not build with the runtime linked in: the build names
    // the product.
    #expect(
      ReleaseBuild.command
        == "swift build -c release --static-swift-stdlib --product observatory")
  }

  @Test("A debug build's refusal to write a report, and the gate's messages, give that build")
  func namedBuilds() throws {
    do {
      _ = try Observatory.parseAsRoot(["run"])
      Issue.record("a debug build wrote a report without --allow-debug")
    } catch {
      #expect(Observatory.fullMessage(for: error).contains("`\(ReleaseBuild.then())`"))
    }
    #expect(InstructionGate.record == ReleaseBuild.then("baseline record"))
    #expect(InstructionGate.check == ReleaseBuild.then("baseline check"))
    #expect(
      ReleaseBuild.arguments(product: "tool")
        == ["build", "-c", "release", "--static-swift-stdlib", "--product", "tool"])
  }
}
