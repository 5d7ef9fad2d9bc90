import Foundation
import ObservationConformance
import Testing

/// `DictionaryConformanceRules.swift` is the output of `observatory conformance-tests
/// --suite-name DictionaryConformanceRules --backend 'DictionaryBackend()'`, committed: it must
/// be regenerated whenever the suite gains, loses or renames a rule.
@Test("The one-test-per-rule file is what conformance-tests makes for this suite")
func generatedRulesFileIsCurrent() throws {
  let committed = try String(
    contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("DictionaryConformanceRules.swift"),
    encoding: .utf8)
  let current = ConformanceTestSource(
    suiteName: "DictionaryConformanceRules", backend: "DictionaryBackend()"
  ).text
  #expect(
    committed == current,
    "regenerate it: swift run observatory conformance-tests --suite-name DictionaryConformanceRules --backend 'DictionaryBackend()' > Tests/ThirdPartyBackendTests/DictionaryConformanceRules.swift"
  )
  for rule in ConformanceSuite.rules {
    #expect(committed.contains("ConformanceSuite.rule(\"\(rule.id)\")"), "\(rule.id)")
  }
}
