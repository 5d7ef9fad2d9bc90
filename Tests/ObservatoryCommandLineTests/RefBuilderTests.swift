import Foundation
import Testing

@testable import ObservatoryCommandLine

/// `ab --base-ref` builds the running tool from the package the current directory is in.
@Suite("ab's builds of a ref")
struct RefBuilderTests {
  @Test("The package is the nearest directory up with a Package.swift, relative to the top")
  func packageDirectory() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "refbuilder-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let example = root.appendingPathComponent("Examples/Tool")
    let sources = example.appendingPathComponent("Sources/tool")
    try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    #expect(throws: RefBuilder.Failure.self) {
      try RefBuilder.packageDirectory(from: sources, root: root)
    }
    try Data().write(to: example.appendingPathComponent("Package.swift"))
    #expect(try RefBuilder.packageDirectory(from: sources, root: root) == "Examples/Tool")
    #expect(try RefBuilder.packageDirectory(from: example, root: root) == "Examples/Tool")
    try Data().write(to: root.appendingPathComponent("Package.swift"))
    #expect(try RefBuilder.packageDirectory(from: root, root: root) == "")
    #expect(
      try RefBuilder.packageDirectory(from: root.appendingPathComponent("Examples"), root: root)
        == "")
  }
}
