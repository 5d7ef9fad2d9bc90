import ObservationCore

/// REE: writes from inside callbacks.
enum ReentrancyRules {
  static let all: [ConformanceRule] = [
    ConformanceRule(
      "REE-01", .required,
      title: "a set from inside a callback neither deadlocks nor traps, and reaches every observer",
      intent: "Observers that react by writing (validation, derived state) are everyday code.",
      traits: [.nestsWrites]
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      let tokens = (0..<3).map { id in
        subject.observe(
          recorder.handler(id) { value in
            if id == 0 && value == 1 { subject.value = 2 }
          })
      }
      context.forget(recorder)
      subject.value = 1
      context.settle { (0..<3).allSatisfy { recorder.values(of: $0).contains(2) } }
      for id in 0..<3 {
        verdict.expect(
          recorder.values(of: id).contains(2), "3 observers; #0 sets 2 while 1 is delivered",
          expected: "observer \(id) receives 2", observed: "it received \(recorder.values(of: id))")
      }
      withExtendedLifetime(tokens) {}
      return verdict.result
    },
    ConformanceRule(
      "REE-02", .required,
      title: "reentrant recursion stays within the declared maxReentrancyDepth",
      intent: "A backend that recurses on every nested write overflows the stack on a long"
        + " chain of reactions; the declaration says how long a chain it supports.",
      traits: [.nestsWrites]
    ) { context in
      var verdict = Verdict()
      let chain: Int
      switch context.capabilities.maxReentrancyDepth {
      case .bounded(let depth): chain = depth
      case .unbounded: chain = 100_000
      }
      guard chain >= 2 else {
        // A chain of one value makes no write from a callback: nothing recursed, so nothing
        // was checked.
        return .notApplicable(
          "maxReentrancyDepth \(chain) allows no chain of nested writes: a chain as long as the"
            + " bound makes no write from a callback, so there is no recursion to check (REE-01"
            + " and REE-05 check a single nested write)")
      }
      let nestingLimit: Int
      switch context.capabilities.maxReentrancyDepth {
      case .bounded(let depth): nestingLimit = depth + 1
      case .unbounded: nestingLimit = 256
      }
      var recursedTooDeep = false
      let subject = context.subject(0)
      var depth = 0
      var maxDepth = 0
      var received = 0
      var lastReceived = 0
      var inOrder = true
      let token = subject.observe { value in
        depth += 1
        maxDepth = max(maxDepth, depth)
        if value >= 1 {
          received += 1
          if value != lastReceived + 1 { inOrder = false }
          lastReceived = value
        }
        // A backend that recurses although it claims more than it can stand would overflow the
        // stack: stop the chain once nesting passes what the declaration allows.
        if depth > nestingLimit { recursedTooDeep = true }
        if value >= 1 && value < chain && !recursedTooDeep { subject.value = value + 1 }
        depth -= 1
      }
      subject.value = 1
      context.settle(until: { lastReceived == chain }, progress: { received })
      verdict.expect(
        !recursedTooDeep, "each callback sets the next value, a chain of \(chain)",
        expected:
          "callback nesting within \(context.capabilities.maxReentrancyDepth == .unbounded ? "a trampolining backend's constant depth" : "the declared bound")",
        observed: "nesting passed \(nestingLimit); the chain was stopped there to save the stack")
      verdict.expectEqual(
        received, chain, "each callback sets the next value, a chain of \(chain) (values received)")
      verdict.expect(
        inOrder, "same chain", expected: "values received in order", observed: "out of order")
      verdict.expectEqual(subject.value, chain, "same chain (get afterwards)")
      if case .bounded(let bound) = context.capabilities.maxReentrancyDepth {
        verdict.expect(
          maxDepth <= bound, "same chain", expected: "callback nesting at most \(bound)",
          observed: "nesting \(maxDepth)")
      }
      verdict.note("chain \(chain), deepest callback nesting \(maxDepth)")
      withExtendedLifetime(token) {}
      return verdict.result
    },
    ConformanceRule(
      "REE-03", .required,
      title: "last write wins: every observer ends on the value set from inside a callback",
      intent: "Recursive delivery resumes the outer, older value after the nested one, so later"
        + " observers end on a value the subject no longer holds, or see it after a newer one.",
      traits: [.nestsWrites]
    ) { context in
      var verdict = Verdict()
      for round in Scenarios.nestedWriteRotation(context) {
        let last = round.writes.last!
        verdict.expectEqual(round.final, last, round.action + " (get afterwards)")
        // The whole sequence, not only its end: a backend that recurses and then re-sends the
        // latest value to whoever missed it ends right ([2, 1, 2]) after showing a stale value.
        for (id, values) in round.values.enumerated() {
          verdict.expect(
            round.isInOrderPartOfWrites(values), round.action,
            expected: "observer \(id) receives part of \(round.writes), each at most once and in"
              + " write order, ending with \(last), the last write",
            observed: "it received \(values)")
        }
      }
      return verdict.result
    },
    ConformanceRule(
      "REE-04", .capability, binds: .when(.has(.suppressesDuplicates)),
      title: "a two-way binding terminates with both sides equal",
      intent: "Binding X to Y and Y to X loops forever unless equal writes are suppressed.",
      traits: [.showsCapability, .nestsWrites]
    ) { context in
      var verdict = Verdict()
      // A terminating binding makes two writes of its own, nested two deep when delivery is
      // synchronous: X's observer sets Y = 1, Y's observer sets X = 1, which suppression
      // stops. A few writes more are allowed before the binding counts as a loop, never more
      // than the declared nesting.
      let writeLimit: Int
      switch context.capabilities.maxReentrancyDepth {
      case .bounded(let depth):
        guard depth >= 2 else {
          return .notApplicable(
            "a two-way binding nests its writes 2 deep; the backend declares nested writes"
              + " \(depth) deep at most")
        }
        writeLimit = min(depth, 8)
      case .unbounded: writeLimit = 8
      }
      let x = context.subject(0)
      let y = context.subject(0)
      var writes = 0
      // Callbacks that would have written once the limit was reached: proof of a loop.
      var refused = 0
      func forward(_ value: Int, to other: TestSubject<Int>) {
        guard writes < writeLimit else {
          refused += 1
          return
        }
        writes += 1
        other.value = value
      }
      let tokens = [
        x.observe { value in forward(value, to: y) },
        y.observe { value in forward(value, to: x) },
      ]
      context.drain()
      writes = 0
      refused = 0
      x.value = 1
      context.drain()
      // An asynchronous binding bounces one hop per turn: it has ended only if a further turn
      // adds no write.
      let afterFirstTurn = writes + refused
      context.drain()
      let bouncing = refused > 0 || writes + refused != afterFirstTurn
      verdict.expect(
        !bouncing && x.value == 1 && y.value == 1, "bind X to Y and Y to X, then set X = 1",
        expected: "terminates with X == Y == 1 after the binding's own 2 writes",
        observed: bouncing
          ? "still bouncing: \(writes) writes made, \(refused) more asked for"
          : "X = \(x.value), Y = \(y.value) after \(writes) writes")
      withExtendedLifetime(tokens) {}
      return verdict.result
    },
  ]
}
