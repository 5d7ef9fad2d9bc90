import ObservationBackends
import ObservationCore
import Testing

@testable import ObservationConformance

/// The conformance child's request: one type, read back from the arguments it writes, with its
/// protocol's version first and the rule to start from typed.
@Suite("The conformance child's request")
struct ConformanceChildRequestTests {
  @Test("Every field survives its arguments, the version first")
  func roundTrip() throws {
    let request = ConformanceChildRequest(
      backend: "linked-list", firstRule: "CAN-05", parentProcess: 42, readsKnownOutcomes: true)
    #expect(
      request.arguments == [
        "--protocol", String(ConformanceChildRequest.protocolVersion), "--backend", "linked-list",
        "--from", "CAN-05", "--parent", "42", "--known-outcomes-on-stdin",
      ])
    #expect(try ConformanceChildRequest(arguments: request.arguments) == request)
    let least = ConformanceChildRequest(backend: "array")
    #expect(try ConformanceChildRequest(arguments: least.arguments) == least)
  }

  @Test("A request of another version, or of none, is refused as incompatible")
  func otherVersions() {
    #expect(throws: ConformanceIsolationError.incompatibleRequest(found: "1")) {
      try ConformanceChildRequest(arguments: ["--protocol", "1", "--backend", "array"])
    }
    // A request of the first protocol, which had no version.
    #expect(throws: ConformanceIsolationError.incompatibleRequest(found: nil)) {
      try ConformanceChildRequest(arguments: ["--backend", "array", "--from", "CAN-05"])
    }
    #expect(
      ConformanceIsolationError.incompatibleRequest(found: "1").description.contains(
        "built from different code"))
  }

  @Test("A request without a backend, or with an unknown argument, names what is wrong")
  func malformed() {
    let version = ["--protocol", String(ConformanceChildRequest.protocolVersion)]
    #expect(throws: ConformanceIsolationError.invalidRequest("--backend NAME is missing")) {
      try ConformanceChildRequest(arguments: version)
    }
    #expect(throws: ConformanceIsolationError.invalidRequest("unknown argument '--fast'")) {
      try ConformanceChildRequest(arguments: version + ["--backend", "array", "--fast"])
    }
    #expect(throws: ConformanceIsolationError.invalidRequest("--parent needs a process id")) {
      try ConformanceChildRequest(arguments: version + ["--backend", "array", "--parent", "0"])
    }
  }

  @Test("A child refuses a request for another backend than the one it runs, before anything")
  func otherBackend() throws {
    let linkedList = try #require(BackendCatalog.backend(named: "linked-list"))
    func attempt<Backend: ObservationBackend>(_ backend: Backend) throws {
      try ConformanceChild.run(backend, request: ConformanceChildRequest(backend: "array"))
    }
    #expect(
      throws: ConformanceIsolationError.invalidRequest(
        "the request names backend 'array'; this child runs 'linked-list'")
    ) { try attempt(linkedList) }
  }
}
