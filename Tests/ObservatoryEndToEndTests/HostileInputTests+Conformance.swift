import Foundation
import Testing

/// `conformance`'s own options, given values it does not take.
extension HostileInputTests {
  @Test(
    "--rule-timeout takes a positive, finite number of seconds, with a one-line error otherwise",
    arguments: ["0", "-1", "inf", "nan", "ten", ""])
  func invalidRuleTimeout(_ value: String) throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try BuiltTool.run(
      ["conformance", "--backend", "linked-list", "--rule-timeout", value], in: directory)
    #expect(result.status == 1 && !result.signalled, "\(result.errors)")
    #expect(
      result.errors.contains(
        "The value '\(value)' is invalid for '--rule-timeout <seconds>': must be a positive,"
          + " finite number of seconds"), "\(result.errors)")
    #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
    #expect(result.output.isEmpty)
  }
}
