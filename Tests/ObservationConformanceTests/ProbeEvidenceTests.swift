import ArrayBackend
import ObservationConformance
import ObservationCore
import Testing

@testable import conformance_fixtures

/// A probe credits a capability only with positive evidence of it: a rule that can only fail
/// to see a violation (a race not seen, a property that holds without the capability) reports
/// "not seen violated", and META-01 does not repeat it as a capability the backend has.
@Suite("Probes credit a capability only on evidence")
struct ProbeEvidenceTests {
  /// `base` with `dropped` left out of its declaration.
  struct Undeclaring<Base: ObservationBackend>: ObservationBackend {
    let base: Base
    let dropped: Capability
    var name: String { base.name + "-undeclaring-" + dropped.rawValue }
    var capabilities: BackendCapabilities {
      var declared = base.capabilities
      declared.flags.remove(dropped)
      return declared
    }
    func makeSubject(initialValue: Int) -> Base.Subject {
      base.makeSubject(initialValue: initialValue)
    }
  }

  static let quick = ConformanceConfiguration(stochasticIterations: 3, timeout: 5)

  @Test("A stochastic probe that sees no overlap is 'not seen violated', never credited")
  func stochasticProbeIsNotEvidence() throws {
    let backend = Undeclaring(
      base: SerializingBackend(nestedWriteEndsDrain: false), dropped: .serializedDelivery)
    let rule = try #require(ConformanceSuite.rule("THR-02"))
    let probe = ConformanceSuite.run(rule, on: backend, configuration: Self.quick)
    #expect(probe.kind == .probeNotSeenViolated, "\(probe.label): \(probe.details)")
    #expect(probe.details.hasPrefix("not seen violated in 3 tries"), "\(probe.details)")
    // META-01 credits probe-observed outcomes only (the array backend's below shows it).
  }

  @Test("A probe whose pass shows the capability is 'observed', and META-01 credits it")
  func positiveEvidenceIsCredited() throws {
    let backend = Undeclaring(base: BrokenBackend(fault: nil), dropped: .preservesObserverOrder)
    let report = ConformanceSuite.run(backend, configuration: Self.quick)
    #expect(report.outcome(of: "ORD-01")?.kind == .probeObserved)
    let meta = try #require(report.outcome(of: "META-01"))
    #expect(meta.details.contains("preservesObserverOrder observed by ORD-01"), "\(meta.details)")
    // The array backend has no replay: convergence (SUB-03) holds anyway, since broadcasts
    // reach every observer, so its pass is no evidence; INIT-01 sees no replay.
    let array = ConformanceSuite.run(ArrayStrategy(), configuration: Self.quick)
    #expect(array.outcome(of: "INIT-01")?.kind == .probeNotObserved)
    #expect(array.outcome(of: "SUB-03")?.kind == .probeNotSeenViolated)
    #expect(array.outcome(of: "META-01")?.details.contains("replaysCurrentValue") == false)
  }

  @Test("REE-02 at a bound of one makes no nested write, so it is n/a, not a pass")
  func boundOfOneIsNotApplicable() throws {
    let rule = try #require(ConformanceSuite.rule("REE-02"))
    let outcome = ConformanceSuite.run(rule, on: MisuseReportingBackend(bound: 1, reports: true))
    #expect(outcome.kind == .notApplicable, "\(outcome.label): \(outcome.details)")
    #expect(outcome.details.contains("no chain of nested writes"))
  }
}
