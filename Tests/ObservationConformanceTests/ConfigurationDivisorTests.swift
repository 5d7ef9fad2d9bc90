import ObservationBackends
import ObservationConformance
import Testing

/// The configuration's divisors shorten the rules that read them, say so in their notes, and
/// leave the rules as documented by default: the sanitizers' passes and the fixtures' shared
/// reports use them, and a divisor that changed nothing (or changed the default) would go unseen.
@Suite("A configuration's divisors")
struct ConfigurationDivisorTests {
  @Test("scriptDivisor: DIFF-01's 60 scripts and DIFF-02's 40, divided; at least 1")
  func scripts() throws {
    // The key-path registry: DIFF-02 binds where nested key paths are declared.
    let backend = try #require(BackendCatalog.backend(named: "key-path"))
    let diff01 = try #require(ConformanceSuite.rule("DIFF-01"))
    let diff02 = try #require(ConformanceSuite.rule("DIFF-02"))
    let divided = ConformanceConfiguration(scriptDivisor: 4)
    for (rule, configuration, scripts) in [
      (diff01, ConformanceConfiguration.standard, 60), (diff01, divided, 15),
      (diff02, .standard, 40), (diff02, divided, 10),
    ] {
      let outcome = ConformanceSuite.run(rule, on: backend, configuration: configuration)
      #expect(outcome.kind == .passed, "\(rule.id): \(outcome.details)")
      #expect(outcome.details.contains("\(scripts) scripts of "), "\(rule.id): \(outcome.details)")
    }
    #expect(ConformanceConfiguration(scriptDivisor: 100).scripts(60) == 1)
    #expect(ConformanceConfiguration(scriptDivisor: 0).scripts(60) == 60)
  }

  @Test("volumeDivisor: MEM-05's 100,000 cycles, divided")
  func volume() throws {
    let backend = try #require(BackendCatalog.backend(named: "linked-list"))
    let rule = try #require(ConformanceSuite.rule("MEM-05"))
    let outcome = ConformanceSuite.run(
      rule, on: backend, configuration: ConformanceConfiguration(volumeDivisor: 10))
    #expect(outcome.kind == .passed, "\(outcome.details)")
    #expect(outcome.details.contains("10000 "), "\(outcome.details)")
    #expect(ConformanceConfiguration.standard.volume(100_000) == 100_000)
  }
}
