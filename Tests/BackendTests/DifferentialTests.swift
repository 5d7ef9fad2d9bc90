import ArrayBackend
import LinkedListBackend
import ObservationCore
import Testing

/// Replays seeded random scripts of observe / cancel / release / set, with observers that write,
/// cancel and subscribe from inside their callbacks, against a backend and against
/// ``ReferenceObservers``, and compares every observer's history.
@Suite("Differential against the reference")
struct DifferentialTests {
  /// What an observer does, once, on its first callback.
  enum Reaction: CustomStringConvertible {
    case write(Int)
    case cancel(Int)
    case cancelSelf
    case subscribe(Int)

    var description: String {
      switch self {
      case .write(let value): return "write \(value)"
      case .cancel(let id): return "cancel #\(id)"
      case .cancelSelf: return "cancel itself"
      case .subscribe(let id): return "subscribe #\(id)"
      }
    }
  }

  enum Step: CustomStringConvertible {
    /// Observer `id`, which performs `reaction` on its `trigger`-th callback.
    case observe(Int, Reaction?, trigger: Int)
    case cancel(Int)
    case release(Int)
    case write(Int)

    var description: String {
      switch self {
      case .observe(let id, let reaction, let trigger):
        return "observe #\(id)" + (reaction.map { " (callback \(trigger): \($0))" } ?? "")
      case .cancel(let id): return "cancel #\(id)"
      case .release(let id): return "release #\(id)"
      case .write(let value): return "set \(value)"
      }
    }
  }

  /// SplitMix64: small, seedable and the same on every platform.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static func script(seed: UInt64, length: Int = 120) -> [Step] {
    var generator = SeededGenerator(state: seed)
    var steps: [Step] = []
    var nextID = 0
    for _ in 0..<length {
      switch Int.random(in: 0..<10, using: &generator) {
      case 0...2:
        nextID += 1
        let reaction: Reaction?
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: reaction = .write(Int.random(in: 1000..<2000, using: &generator))
        case 1: reaction = .cancel(Int.random(in: 1...nextID, using: &generator))
        case 2: reaction = .cancelSelf
        case 3:
          nextID += 1
          reaction = .subscribe(nextID)
        default: reaction = nil
        }
        steps.append(.observe(nextID, reaction, trigger: Int.random(in: 1...3, using: &generator)))
      case 3: steps.append(.cancel(Int.random(in: 1...max(1, nextID), using: &generator)))
      case 4: steps.append(.release(Int.random(in: 1...max(1, nextID), using: &generator)))
      default: steps.append(.write(Int.random(in: 0..<100, using: &generator)))
      }
    }
    return steps
  }

  /// Runs `steps` on a subject; returns the history as "#id:value" strings, in call order.
  static func history<Subject: ObservableValue>(of subject: Subject, _ steps: [Step]) -> [String]
  where Subject.Value == Int {
    var log: [String] = []
    var tokens: [Int: AnyObservationToken] = [:]
    func observe(_ id: Int, _ reaction: Reaction?, trigger: Int) {
      var calls = 0
      let token = subject.observe { value in
        log.append("#\(id):\(value)")
        calls += 1
        guard let reaction, calls == trigger else { return }
        switch reaction {
        case .write(let value): subject.value = value
        case .cancel(let target): tokens[target]?.cancel()
        case .cancelSelf: tokens[id]?.cancel()
        case .subscribe(let newID): observe(newID, nil, trigger: 0)
        }
      }
      tokens[id] = AnyObservationToken(token)
    }
    for step in steps {
      switch step {
      case .observe(let id, let reaction, let trigger): observe(id, reaction, trigger: trigger)
      case .cancel(let id): tokens[id]?.cancel()
      case .release(let id): tokens[id] = nil
      case .write(let value): subject.value = value
      }
      log.append("| get \(subject.value)")
    }
    // Observers capture the subject; cancelling releases them and breaks that cycle.
    for token in tokens.values { token.cancel() }
    return log
  }

  static let seeds: [UInt64] = (1...60).map { UInt64($0) &* 0x2545_F491_4F6C_DD1D }

  @Test("Linked list matches the reference (replaying)", arguments: seeds)
  func linkedList(seed: UInt64) {
    let steps = Self.script(seed: seed)
    let expected = Self.history(of: ReferenceObservers(0, replays: true), steps)
    let actual = Self.history(of: LinkedListObservers(0), steps)
    #expect(
      actual == expected,
      "seed \(seed): first difference at \(Self.firstDifference(actual, expected)); script: \(steps)"
    )
  }

  @Test("Array matches the reference (not replaying)", arguments: seeds)
  func array(seed: UInt64) {
    let steps = Self.script(seed: seed)
    let expected = Self.history(of: ReferenceObservers(0, replays: false), steps)
    let actual = Self.history(of: ArrayObservers(0), steps)
    #expect(
      actual == expected,
      "seed \(seed): first difference at \(Self.firstDifference(actual, expected)); script: \(steps)"
    )
  }

  static func firstDifference(_ lhs: [String], _ rhs: [String]) -> String {
    let index =
      zip(lhs, rhs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(lhs.count, rhs.count)
    let left = index < lhs.count ? lhs[index] : "end"
    let right = index < rhs.count ? rhs[index] : "end"
    return "event \(index): backend \(left), reference \(right)"
  }
}
