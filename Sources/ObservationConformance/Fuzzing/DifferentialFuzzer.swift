import ObservationCore
import ObservationFixtures

/// DIFF-01's and DIFF-02's scripts, drawn from a fuzzer's bytes instead of a seed: fuzz your
/// backend against the reference model for as long as you like, with the rules' verdicts and
/// the script a failure prints.
///
/// The rules replay 60 and 40 seeded scripts; a coverage-guided fuzzer (libFuzzer) mutates the
/// bytes that draw a script towards the branches of *your* backend no script has reached yet.
/// Each input is one script on a fresh subject: the first byte picks the rule (DIFF-02 on a
/// backend with nested paths when its lowest bit is set) and, for DIFF-01, whether the script
/// has a second subject (its next bit, on a backend whose nested writes fit its bound, as the
/// rule's two-subject scripts) or is over two
/// properties of one object of the backend's own (the bit after it, where the rule runs its
/// aggregate scripts, with observers of the object's will-change signal), the second the
/// script's length (1 to the rule's own), and the rest the script's choices, the same choices a
/// seed makes.
///
/// ```swift
/// @_cdecl("LLVMFuzzerTestOneInput")
/// public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
///   let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
///   if let finding = fuzzer.check(input) { fatalError("\(finding)") }
///   return 0
/// }
/// let fuzzer = try! DifferentialFuzzer(MyBackend())
/// ```
///
/// A backend that passes DIFF-01 and DIFF-02 can still be found wrong here: the fuzzer tries
/// millions of scripts where the rules try a hundred. Every finding is a script the rule's
/// model disagrees with, with the same `expected`/`observed` lines a failing rule prints.
public struct DifferentialFuzzer: @unchecked Sendable {
  /// The backend's subjects, declaration and the tokens of the current script.
  let context: RuleContext
  /// How DIFF-01 checks this backend's scripts.
  let plan: DifferentialRules.ScriptPlan
  /// Whether DIFF-02 binds on this backend (it declares nested key paths and has a fixture).
  let fuzzesNestedPaths: Bool
  /// How DIFF-01 runs aggregate scripts on this backend, where it does.
  let aggregate: DifferentialRules.AggregatePlan?

  /// A fuzzer of `backend`'s scripts.
  ///
  /// - Throws: `CapabilityDeclarationError` if the backend's declaration is invalid (META-02):
  ///   no rule judges a backend whose declaration contradicts itself.
  public init<Backend: ObservationBackend>(
    _ backend: Backend, configuration: ConformanceConfiguration = .standard
  ) throws(CapabilityDeclarationError) {
    try backend.capabilities.validate()
    context = RuleContext(backend: backend, configuration: configuration)
    plan = DifferentialRules.ScriptPlan(context)
    fuzzesNestedPaths =
      backend.capabilities.has(.nestedKeyPaths) && backend.makeAnyNestedPathFixture() != nil
    aggregate =
      plan.exact && plan.reactions.writes ? DifferentialRules.AggregatePlan(context) : nil
  }

  /// Replays the script `input` draws on a fresh subject of the backend and checks it as its
  /// rule does.
  ///
  /// - Returns: `nil` when the backend's history is the model's (DIFF-01) or keeps the path's
  ///   history (DIFF-02); otherwise the finding.
  /// - Complexity: O(*s* · *o*) for a script of *s* steps over *o* observers, plus the
  ///   backend's own costs and, for an asynchronous backend, its delivery turns.
  public func check(_ input: [UInt8]) -> DifferentialFinding? {
    guard input.count >= 2 else { return nil }
    let nested = fuzzesNestedPaths && input[0] & 1 == 1
    let longest =
      nested ? DifferentialRules.nestedStepsPerScript : DifferentialRules.stepsPerScript
    let length = 1 + Int(input[1]) % longest
    var generator = FuzzedChoices(input.dropFirst(2))
    let ledger = context.ledger
    context.ledger = TokenLedger()
    defer {
      context.ledger.cancelAll()
      context.ledger = ledger
    }
    if nested {
      let declared = context.capabilities
      let synchronous = declared.has(.synchronousDelivery)
      let steps = NestedPathScript.steps(
        using: &generator, length: length,
        nestedWrites: DifferentialRules.nestedWrites(declared),
        nestedObserves: synchronous, delivers: !synchronous)
      return DifferentialRules.nestedPathViolation(steps, on: context).map {
        DifferentialFinding(rule: "DIFF-02", $0)
      }
    }
    var reactions = plan.reactions
    if let aggregate, input[0] & 4 == 4 {
      reactions.writesOther = true
      reactions.observesObject = aggregate.signals
      reactions.uniqueValues = true
      let steps = DifferentialScript.steps(
        using: &generator, length: length, reactions: reactions)
      return plan.aggregateFailure(of: steps, on: context).map {
        DifferentialFinding(rule: "DIFF-01", $0)
      }
    }
    reactions.writesOther = reactions.writes && input[0] & 2 == 2
    // The delivery properties do not tell which subject a completion is of.
    if reactions.writesOther && !plan.exact { reactions.completes = false }
    let steps = DifferentialScript.steps(using: &generator, length: length, reactions: reactions)
    return plan.failure(of: steps, on: context, twoSubjects: reactions.writesOther).map {
      DifferentialFinding(rule: "DIFF-01", $0)
    }
  }
}

/// A script the model disagrees with: the rule that would fail, the script up to where it went
/// wrong, and the two sides, as the rule prints them.
public struct DifferentialFinding: Error, Sendable, CustomStringConvertible {
  /// `DIFF-01` or `DIFF-02`.
  public let rule: RuleID
  /// The script's steps up to the departure, and what happened there.
  public let action: String
  /// What the reference model (or the delivery properties) expected.
  public let expected: String
  /// What the backend did.
  public let observed: String

  init(rule: RuleID, _ failure: DifferentialRules.Failure) {
    self.rule = rule
    action = failure.action
    expected = failure.expected
    observed = failure.observed
  }

  /// `DIFF-01: <action>; expected: ...; observed: ...`, as a failing rule prints it.
  public var description: String {
    "\(rule): \(action); expected: \(expected); observed: \(observed)"
  }
}

/// The choices a script makes, read from a fuzzer's bytes eight at a time; past their end, a
/// SplitMix64 sequence seeded from them, so that every input draws one whole script and the
/// same input always the same one. (A generator that returned zeros forever would make
/// `Int.random(in:using:)` retry for good on a range that is not a power of two.)
struct FuzzedChoices: RandomNumberGenerator {
  private var bytes: ArraySlice<UInt8>
  private var tail: DifferentialScript.SeededGenerator

  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    // FNV-1a over the bytes: every byte moves the seed of what follows them.
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    tail = DifferentialScript.SeededGenerator(state: hash)
  }

  mutating func next() -> UInt64 {
    guard bytes.count >= 8 else { return tail.next() }
    var value: UInt64 = 0
    for byte in bytes.prefix(8) { value = value << 8 | UInt64(byte) }
    bytes = bytes.dropFirst(8)
    return value
  }
}
