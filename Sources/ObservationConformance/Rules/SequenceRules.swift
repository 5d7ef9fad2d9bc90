import ObservationCore

/// Catalogue 1.1's rules on whole per-observer sequences (DEL-06), reading back a nested
/// write (REE-05) and observer counts past word masks and inline buffers (SCALE-01).
enum SequenceRules {
  /// The values of a script, and where each observer's should come out.
  private static func sameValues(_ received: [Int], _ expected: [Int], inOrder: Bool) -> Bool {
    inOrder ? received == expected : received.sorted() == expected.sorted()
  }

  static let all: [ConformanceRule] = [
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
    },
    ConformanceRule(
      "REE-05", .required,
      title: "a value set inside a callback reads back at once",
      intent: "Code that writes and then reads, as a model's callback often does, must see its"
        + " own write, not the value still being delivered.",
      traits: [.nestsWrites]
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let readBack = Locked<[Int?]>([])
      let token = subject.observe { value in
        guard value == 1 else { return }
        subject.value = 2
        let read = subject.get()
        readBack.withLock { $0.append(read) }
      }
      subject.value = 1
      context.settle { !readBack.withLock { $0.isEmpty } }
      let reads = readBack.withLock { $0 }
      verdict.expect(
        reads == [2], "set 1; its callback sets 2 and reads the subject right after",
        expected: "the read returns 2",
        observed: reads.isEmpty ? "the callback never ran" : "it returned \(brief(reads))")
      withExtendedLifetime(token) {}
      return verdict.result
    },
    ConformanceRule(
      "SCALE-01", .required,
      title: "every observer is served at 1, 63, 64, 65, 1,000 and 10,000 observers",
      intent: "A backend that keeps observers in a word-sized mask or a small inline buffer"
        + " drops those past it; no other rule registers more than 64."
    ) { context in
      var verdict = Verdict()
      let everyValue = context.has(.deliversEveryValue)
      for count in [1, 63, 64, 65, 1_000, 10_000] {
        let subject = context.subject(0)
        let received = Locked<[[Int]]>(Array(repeating: [], count: count))
        let tokens = (0..<count).map { index in
          subject.observe { value in
            guard value > 0 else { return }
            received.withLock { $0[index].append(value) }
          }
        }
        subject.value = 1
        subject.value = 2
        context.settle { received.withLock { $0.allSatisfy { $0.last == 2 } } }
        let lists = received.withLock { $0 }
        let wrong = lists.indices.filter {
          everyValue ? lists[$0] != [1, 2] : lists[$0].last != 2
        }
        verdict.expect(
          wrong.isEmpty, "\(count) observers; set 1, then 2",
          expected: everyValue ? "every observer receives [1, 2]" : "every observer ends on 2",
          observed: wrong.isEmpty
            ? "" : "\(wrong.count) did not, first #\(wrong[0]): \(brief(lists[wrong[0]]))")
        withExtendedLifetime(tokens) {}
        if !wrong.isEmpty { break }
      }
      return verdict.result
    },
  ]
}
