import ObservationCore

/// DIFF-01: seeded random scripts, replayed on the backend and on ``ReferenceObservers``
/// configured from the backend's declaration, must give the same histories.
enum DifferentialRules {
  /// Scripts per backend, and steps per script.
  static let scripts = 60
  static let stepsPerScript = 120

  static let all: [ConformanceRule] = [
    ConformanceRule(
      "DIFF-01", .required,
      title: "seeded random scripts give the reference model's histories",
      intent: "Hand-written scenarios try the combinations someone thought of. Random scripts of"
        + " observe, cancel, release and set, with observers that write, cancel and subscribe"
        + " (or subscribe, then write) from their callbacks, find the ones nobody did; the seed"
        + " reproduces a failure."
    ) { context in
      let declared = context.capabilities
      // The histories are the values each observer receives, never what a callback reads back,
      // so they do not depend on whether the store comes before the callbacks (didSet) or
      // after them (willSet).
      guard declared.has(.synchronousDelivery), declared.has(.deliversEveryValue),
        declared.timing == .didSet || declared.timing == .willSet
      else {
        return .notApplicable(
          "the reference model covers synchronous didSet or willSet backends that deliver every"
            + " value; this one declares timing \(declared.timing.rawValue)"
            + (declared.has(.synchronousDelivery) ? "" : ", asynchronous delivery")
            + (declared.has(.deliversEveryValue) ? "" : ", coalescing"))
      }
      let semantics = ReferenceObservers.Semantics(declared)
      let reactions = DifferentialScript.Reactions(declared)
      var verdict = Verdict()
      for index in 1...scripts {
        let seed = UInt64(index) &* 0x2545_F491_4F6C_DD1D
        let steps = DifferentialScript.steps(
          seed: seed, length: stepsPerScript, reactions: reactions)
        let expected = DifferentialScript.history(
          of: TestSubject(ReferenceObservers(0, semantics: semantics)), steps,
          cancelsOnRelease: semantics.cancelsOnRelease)
        let actual = DifferentialScript.history(
          of: context.subject(0), steps, cancelsOnRelease: semantics.cancelsOnRelease)
        let ordered = declared.has(.preservesObserverOrder)
        let same =
          ordered
          ? actual == expected
          : DifferentialScript.perObserver(actual) == DifferentialScript.perObserver(expected)
        if !same {
          let (at, backend, reference) = DifferentialScript.firstDifference(actual, expected)
          verdict.expect(
            false,
            "seed \(seed) (script \(index) of \(scripts)): "
              + DifferentialScript.describe(steps, upTo: at, in: actual),
            expected: "the reference model's \(reference) at event \(at)"
              + (ordered ? "" : " (histories compared per observer)"),
            observed: backend)
          break
        }
      }
      verdict.note(
        "\(scripts) scripts of \(stepsPerScript) steps; reactions: \(reactions.description)")
      return verdict.result
    }
  ]
}

/// The scripts DIFF-01 replays.
enum DifferentialScript {
  /// What an observer does, once, on its `trigger`-th callback.
  enum Reaction: CustomStringConvertible {
    case write(Int)
    case cancel(Int)
    case cancelSelf
    case subscribe(Int)
    /// Subscribes a new observer, then writes, in the same callback: the write must reach it.
    case subscribeThenWrite(Int, Int)

    var description: String {
      switch self {
      case .write(let value): return "write \(value)"
      case .cancel(let id): return "cancel #\(id)"
      case .cancelSelf: return "cancel itself"
      case .subscribe(let id): return "subscribe #\(id)"
      case .subscribeThenWrite(let id, let value): return "subscribe #\(id), then write \(value)"
      }
    }
  }

  /// One top-level step of a script.
  enum Step: CustomStringConvertible {
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

  /// Which reactions a script may use: only those whose outcome the declaration fixes.
  struct Reactions: CustomStringConvertible {
    /// Nested writes: not when the backend bounds nesting below what a script can reach.
    var writes: Bool
    /// Cancels from a callback: only with immediate cancellation (otherwise the in-flight
    /// value may or may not arrive).
    var cancels: Bool
    /// Subscribing from a callback: only without replay (a replay during delivery may send
    /// the stored value or the one in flight, SUB-02).
    var subscribes: Bool

    init(_ declared: BackendCapabilities) {
      // Reactions change what later observers see depending on who is called first.
      let ordered = declared.has(.preservesObserverOrder)
      switch declared.maxReentrancyDepth {
      case .unbounded: writes = ordered
      case .bounded(let depth): writes = ordered && depth >= 16
      }
      cancels = ordered && declared.has(.immediateCancellation)
      subscribes = ordered && !declared.has(.replaysCurrentValue)
    }

    var description: String {
      let used = [
        (writes, "nested writes"), (cancels, "cancels"), (subscribes, "subscribes"),
        (writes && subscribes, "subscribe-then-write"),
      ]
      .filter(\.0).map(\.1)
      return used.isEmpty ? "none" : used.joined(separator: ", ")
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

  /// The script of `seed`.
  ///
  /// - Complexity: O(`length`).
  static func steps(seed: UInt64, length: Int, reactions: Reactions) -> [Step] {
    var generator = SeededGenerator(state: seed)
    var steps: [Step] = []
    var nextID = 0
    for _ in 0..<length {
      switch Int.random(in: 0..<10, using: &generator) {
      case 0...2:
        nextID += 1
        let id = nextID
        var reaction: Reaction?
        switch Int.random(in: 0..<9, using: &generator) {
        case 0: reaction = .write(Int.random(in: 1000..<2000, using: &generator))
        case 1: reaction = .cancel(Int.random(in: 1...nextID, using: &generator))
        case 2: reaction = .cancelSelf
        case 3:
          nextID += 1
          reaction = .subscribe(nextID)
        case 4:
          nextID += 1
          reaction = .subscribeThenWrite(nextID, Int.random(in: 2000..<3000, using: &generator))
        default: reaction = nil
        }
        switch reaction {
        case .write where !reactions.writes: reaction = nil
        case .cancel where !reactions.cancels, .cancelSelf where !reactions.cancels: reaction = nil
        case .subscribe where !reactions.subscribes: reaction = nil
        case .subscribeThenWrite where !(reactions.subscribes && reactions.writes): reaction = nil
        default: break
        }
        steps.append(.observe(id, reaction, trigger: Int.random(in: 1...3, using: &generator)))
      case 3: steps.append(.cancel(Int.random(in: 1...max(1, nextID), using: &generator)))
      case 4: steps.append(.release(Int.random(in: 1...max(1, nextID), using: &generator)))
      default: steps.append(.write(Int.random(in: 0..<100, using: &generator)))
      }
    }
    return steps
  }

  /// Runs `steps` on `subject`: every callback as "#id:value" and, after each step, "| get v".
  ///
  /// A released token is dropped when releasing cancels; otherwise it is kept aside (a backend
  /// that does not cancel on release would keep the observer either way) and cancelled at the
  /// end with the others.
  static func history(
    of subject: TestSubject<Int>, _ steps: [Step], cancelsOnRelease: Bool
  ) -> [String] {
    var log: [String] = []
    var tokens: [Int: AnyObservationToken] = [:]
    var released: [AnyObservationToken] = []
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
        case .subscribeThenWrite(let newID, let value):
          observe(newID, nil, trigger: 0)
          subject.value = value
        }
      }
      tokens[id] = token
    }
    for step in steps {
      switch step {
      case .observe(let id, let reaction, let trigger): observe(id, reaction, trigger: trigger)
      case .cancel(let id): tokens[id]?.cancel()
      case .release(let id):
        if let token = tokens.removeValue(forKey: id), !cancelsOnRelease {
          released.append(token)
        }
      case .write(let value): subject.value = value
      }
      log.append("| get \(subject.value)")
    }
    // Observers capture the subject; cancelling releases them and breaks that cycle.
    for token in tokens.values { token.cancel() }
    for token in released { token.cancel() }
    return log
  }

  /// Each observer's callbacks, by observer, and the reads, for backends whose observer order
  /// is not declared.
  static func perObserver(_ log: [String]) -> [String: [String]] {
    var grouped: [String: [String]] = [:]
    for event in log {
      let key = event.hasPrefix("#") ? String(event.prefix { $0 != ":" }) : "get"
      grouped[key, default: []].append(event)
    }
    return grouped
  }

  /// Where two histories first differ: the event's index and each side's event there.
  static func firstDifference(_ actual: [String], _ expected: [String]) -> (Int, String, String) {
    let index =
      zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(actual.count, expected.count)
    return (
      index, index < actual.count ? actual[index] : "end",
      index < expected.count ? expected[index] : "end"
    )
  }

  /// The steps up to the one during which event `index` of `log` happened, briefly.
  static func describe(_ steps: [Step], upTo index: Int, in log: [String]) -> String {
    let completed = log.prefix(index).count { $0.hasPrefix("| get") }
    let shown = steps.prefix(completed + 1)
    let text = shown.map(\.description).joined(separator: "; ")
    let tail = text.count > 600 ? "…" + String(text.suffix(600)) : text
    return "after \(completed) steps, during step \(completed + 1): \(tail)"
  }
}
