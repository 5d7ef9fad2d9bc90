import ObservationCore

/// ORD: ordering.
enum OrderRules {
  static let all: [ConformanceRule] = [
    ConformanceRule(
      "ORD-01", .capability, binds: .when(.has(.preservesObserverOrder)),
      title: "observers are called in registration order",
      intent: "Layered observers (model before view, view before analytics) depend on order;"
        + " hash-based registries keep it only for small counts, so the rule uses 64 observers"
        + " on several fresh subjects.",
      traits: [.showsCapability]
    ) { context in
      var verdict = Verdict()
      let observers = 64
      for round in 1...context.configuration.orderRounds {
        let subject = context.subject(0)
        let recorder = Recorder<Int>()
        let tokens = (0..<observers).map { subject.observe(recorder.handler($0)) }
        context.forget(recorder)
        subject.value = round
        context.settle { recorder.count >= observers }
        let order = recorder.callOrder
        verdict.expect(
          order == Array(0..<observers),
          "\(observers) observers on fresh subject #\(round), set \(round)",
          expected: "calls in registration order 0..<\(observers)",
          observed: departure(from: Array(0..<observers), in: order))
        withExtendedLifetime(tokens) {}
        if !verdict.findings.isEmpty { break }
      }
      return verdict.result
    },
    ConformanceRule(
      "ORD-02", .required,
      title: "each observer receives values in the order they were set",
      intent: "Out-of-order delivery makes an observer settle on a stale value."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      let tokens = (1...3).map { subject.observe(recorder.handler($0)) }
      context.forget(recorder)
      for value in 1...1000 { subject.value = value }
      context.settle { recorder.values(of: 3).last == 1000 }
      for id in 1...3 {
        let values = recorder.values(of: id)
        let inOrder = zip(values, values.dropFirst()).allSatisfy { $0 < $1 }
        verdict.expect(
          inOrder && values.last == 1000, "3 observers, set 1...1000",
          expected: "observer \(id) receives increasing values ending with 1000",
          observed: brief(values))
      }
      withExtendedLifetime(tokens) {}
      return verdict.result
    },
    ConformanceRule(
      "ORD-03", .capability, binds: .when(.has(.preservesValueOrderUnderReentrancy)),
      title: "a set from inside a callback never makes an observer see values out of order",
      intent: "Recursive delivery hands the nested value to later observers before the outer"
        + " one, so they end on the older value: a classic source of stale UI.",
      traits: [.showsCapability, .nestsWrites]
    ) { context in
      var verdict = Verdict()
      let everyValue = context.has(.deliversEveryValue)
      for round in Scenarios.nestedWriteRotation(context) {
        for (id, values) in round.values.enumerated() {
          // Every value, in the order the writes were made; or, for a coalescing backend, an
          // in-order part of them ending with the last.
          let inOrder =
            everyValue
            ? values == round.writes
            : round.isInOrderPartOfWrites(values)
          verdict.expect(
            inOrder, round.action,
            expected: everyValue
              ? "observer \(id) receives \(round.writes), in that order"
              : "observer \(id) receives part of \(round.writes) in that order, ending with"
                + " \(round.writes.last!)",
            observed: "it received \(values)")
        }
      }
      return verdict.result
    },
  ]

  /// Where `order` first departs from `expected`, with the calls around that place: a
  /// disorder that starts late (an inline buffer of 16 in order, a hashed spill after it) is
  /// shown where it starts, not hidden past the first dozen calls.
  ///
  /// - Complexity: O(*n*) for *n* calls.
  static func departure(from expected: [Int], in order: [Int]) -> String {
    guard
      let first = zip(order, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?
        .offset ?? (order.count == expected.count ? nil : min(order.count, expected.count))
    else { return "calls in registration order" }
    let misplaced = zip(order, expected).count { $0 != $1 } + abs(order.count - expected.count)
    let window = order[max(0, first - 2)..<min(order.count, first + 10)].map(String.init)
    return "the first \(first) calls in order, then call \(first + 1) went to"
      + (first < order.count ? " observer \(order[first])" : " nobody")
      + (first < expected.count ? " instead of \(expected[first])" : "")
      + "; calls \(max(0, first - 2) + 1) on: [\(window.joined(separator: ", "))"
      + (first + 10 < order.count ? ", …" : "") + "] (\(misplaced) of \(order.count) calls out"
      + " of place)"
  }
}
