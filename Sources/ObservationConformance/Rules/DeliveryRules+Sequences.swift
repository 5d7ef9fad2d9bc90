import ObservationCore

extension DeliveryRules {
  /// The values of a script, and where each observer's should come out.
  private static func sameValues(_ received: [Int], _ expected: [Int], inOrder: Bool) -> Bool {
    inOrder ? received == expected : received.sorted() == expected.sorted()
  }

  /// DEL-06 (catalogue 1.1): each observer's whole sequence of values, not only its count.
  static let sequenceRules: [ConformanceRule] = [
    ConformanceRule(
      "DEL-06", .required, binds: .when(.has(.deliversEveryValue)),
      title:
        "each observer receives exactly the values set while it was registered, including nested writes",
      intent: "A backend that hands observers the stored value instead of the delivered one"
        + " shows [2, 2] for a history of [1, 2]: only whole sequences show it, and only when"
        + " callbacks write.",
      traits: [.showsCapability, .nestsWrites]
    ) { context in
      var verdict = Verdict()
      let inOrder = context.has(.preservesValueOrderUnderReentrancy)
      // Two nested writes in one callback; then one nested write from each of two observers.
      let scenarios: [(name: String, writers: [Int: [Int]])] = [
        ("observer #0 sets 2 and then 3 while 1 is delivered", [0: [2, 3]]),
        ("observers #0 and #1 each set a value (2, 3) while 1 is delivered", [0: [2], 1: [3]]),
      ]
      for (name, writers) in scenarios {
        let round = Scenarios.nestedWrites(
          context, observers: 3, writers: writers, action: "3 observers; \(name)")
        for (id, received) in round.values.enumerated() {
          verdict.expect(
            sameValues(received, round.writes, inOrder: inOrder), round.action,
            expected: "observer #\(id) receives \(round.writes)"
              + (inOrder ? " in that order" : " once each, in any order"),
            observed: "it received \(brief(received))")
        }
      }
      return verdict.result
    }
  ]
}
