import ObservationWorkloads
import Testing

@testable import ObservationHarness
@testable import ObservationReports

/// The cell process's request: what ``CellRunner`` writes is what ``CellChild`` reads.
@Suite("Cell requests")
struct CellRequestTests {
  @Test("Every option round-trips through the arguments, the parent's id padded to ten digits")
  func roundTrip() throws {
    var request = CellRequest(
      Cell(
        allocator: .jemalloc, backend: "key-path", workload: .nested, pattern: .rebind, n: 4096,
        depth: 3),
      repetitions: 7, budget: 2.5, seed: 42, scale: 0.125, metric: .instructions)
    request.parent = 321
    request.cpu = 1
    request.turns = CellRequest.Turns(input: "/tmp/a", output: "/tmp/b")
    #expect(request.arguments.prefix(2) == ["--protocol", String(CellRequest.protocolVersion)])
    #expect(request.arguments.contains("0000000321"))
    #expect(try CellRequest(arguments: request.arguments) == request)

    let plain = CellRequest(
      Cell(allocator: .system, backend: "array", workload: .notify, n: 1), repetitions: 1,
      budget: 1)
    #expect(try CellRequest(arguments: plain.arguments) == plain)
    #expect(!plain.arguments.contains("--metric") && !plain.arguments.contains("--parent"))
  }

  @Test(
    "Each bad argument is refused with its option and what it accepts",
    arguments: [
      (["--n", "0"], "--n must be an integer from 1 to 16777216, got '0'"),
      (["--n", "many"], "--n must be an integer from 1 to 16777216, got 'many'"),
      (["--budget", "nan"], "--budget must be a number of seconds in (0, 86400], got 'nan'"),
      (["--scale", "2"], "--scale must be a fraction in (0, 1], got '2'"),
      (["--metric", "cycles"], "--metric 'cycles' is not one of: time, instructions"),
      (["--turns", "/only/one"], "--turns must be two paths, IN:OUT, got '/only/one'"),
      (["--seed", "-1"], "--seed must be an integer from 0 to 18446744073709551615, got '-1'"),
      (["--n", "2"], "--n is given twice"),
      (["--cpu"], "--cpu needs a value"),
    ])
  func refused(_ extra: [String], _ message: String) {
    // The required options, with the tested option's value in place of a valid one.
    var options = [
      "--protocol": String(CellRequest.protocolVersion), "--backend": "array",
      "--workload": "notify", "--n": "1", "--repetitions": "1", "--budget": "1",
    ]
    var appended = extra
    if extra.count == 2, options[extra[0]] != nil, extra != ["--n", "2"] {
      options[extra[0]] = extra[1]
      appended = []
    }
    let arguments =
      ["--protocol", "--backend", "--workload", "--n", "--repetitions", "--budget"].flatMap {
        [$0, options[$0]!]
      } + appended
    #expect(throws: CellRequestError.invalid(message)) {
      try CellRequest(arguments: arguments)
    }
  }

  @Test("A request without the required options names the first one missing")
  func missing() {
    #expect(throws: CellRequestError.invalid("--backend is required")) {
      try CellRequest(arguments: ["--protocol", String(CellRequest.protocolVersion)])
    }
  }
}
