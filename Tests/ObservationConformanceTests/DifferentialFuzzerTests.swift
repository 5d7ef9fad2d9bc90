import ObservationConformance
import ObservationCore
import Testing

@testable import conformance_fixtures

/// The fuzz entry point finds what DIFF-01 and DIFF-02 find: every broken backend the rules
/// catch gives a finding from some input, and its correct twin none over the same inputs.
@Suite("DifferentialFuzzer, on the broken backends DIFF-01 and DIFF-02 catch")
struct DifferentialFuzzerTests {
  /// The broken backends DIFF-01 or DIFF-02 alone catches, each with its correct twin, the
  /// rule, and the first byte of the inputs tried: 1 for DIFF-02, 2 for DIFF-01's scripts over
  /// two subjects, 4 for those over two properties of one object, 0 for its others.
  static let caught:
    [(
      broken: any ObservationBackend, correct: any ObservationBackend, rule: RuleID,
      firstByte: UInt8
    )] =
      BrokenBackendTests.widenedPaths.map { ($0.broken, $0.correct, "DIFF-01", 0) }
      + BrokenBackendTests.brokenSentences.map {
        ($0.backend, BrokenBackend(fault: nil), "DIFF-01", 0)
      }
      + [
        (
          RebindingNestedPathBackend(fault: .registersAlongThePathReadBeforeTheHandler),
          RebindingNestedPathBackend(fault: nil), "DIFF-02", 1
        ),
        (
          LaterTurnNestedPathBackend(cancel: .cancelsOnItsTurn),
          LaterTurnNestedPathBackend.twins.first, "DIFF-02", 1
        ),
        // Only the model splitting nested writes explains the correct list.
        (
          OpenChoiceBackend(choices: .init(nestedWrite: .splitAfterBroadcastReachingCancelled)),
          OpenChoiceBackend(choices: .init(nestedWrite: .splitAfterBroadcast)), "DIFF-01", 0
        ),
        // Only a script over two subjects shows it.
        (
          TrampolineBackend(sharing: .sharedDefersOtherSubjectsCancels),
          TrampolineBackend(sharing: .shared), "DIFF-01", 2
        ),
        // The same on the delivery properties' path: a later turn's subjects.
        (
          TurnQueueBackend(removal: .parksCancelsFromAnotherSubjectsTurn),
          TurnQueueBackend(removal: .dropsPendingWrites), "DIFF-01", 2
        ),
      ]
      // Only a script over an object's two properties and its signal shows them.
      + AggregateObject.Announcing.allCases.filter { $0 != .inTheSet }.map {
        (AggregateBackend(announcing: $0), AggregateBackend(announcing: .inTheSet), "DIFF-01", 4)
      }

  /// The inputs tried, in order: `firstByte` (which picks the rule and, for DIFF-01, a second
  /// subject), 255 (a whole script), then random bytes (SplitMix64 of the input's number).
  static func input(_ number: UInt64, firstByte: UInt8) -> [UInt8] {
    var state = number &* 0x9E37_79B9_7F4A_7C15
    var bytes: [UInt8] = [firstByte, 255]
    for _ in 0..<32 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      z ^= z >> 31
      for shift in stride(from: 0, to: 64, by: 8) {
        bytes.append(UInt8(truncatingIfNeeded: z >> shift))
      }
    }
    return bytes
  }

  /// Inputs tried per backend before the search gives up (the rules find each within their 60
  /// and 40 scripts).
  static let budget: UInt64 = 200

  @Test(
    "Each broken backend gives a finding of its rule; its correct twin none over the same inputs",
    arguments: 0..<caught.count)
  func findsWhatTheRulesFind(_ index: Int) throws {
    let (broken, correct, rule, firstByte) = Self.caught[index]
    let fuzzer = try Self.fuzzer(broken)
    var tried: UInt64 = 0
    var finding: DifferentialFinding?
    while finding == nil && tried < Self.budget {
      tried += 1
      finding = fuzzer.check(Self.input(tried, firstByte: firstByte))
    }
    let found = try #require(finding, "\(broken.name): no finding in \(tried) inputs")
    #expect(found.rule == rule, "\(broken.name): \(found)")
    #expect(!found.expected.isEmpty && !found.observed.isEmpty)
    let twin = try Self.fuzzer(correct)
    for number in 1...tried {
      let result = twin.check(Self.input(number, firstByte: firstByte))
      #expect(
        result == nil,
        "\(correct.name), input \(number): \(result.map(String.init(describing:)) ?? "")")
    }
  }

  @Test("A declaration META-02 rejects is refused, as the rules refuse to judge it")
  func invalidDeclaration() {
    #expect(throws: CapabilityDeclarationError.self) {
      try DifferentialFuzzer(ContradictoryBackend())
    }
  }

  /// A fuzzer of `backend`, opened from its existential.
  static func fuzzer(_ backend: any ObservationBackend) throws -> DifferentialFuzzer {
    try DifferentialFuzzer(backend)
  }
}
