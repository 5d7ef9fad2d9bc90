import ObservationCore

/// SCALE: observer counts past word masks and inline buffers (catalogue 1.1).
enum ScaleRules {
  static let all: [ConformanceRule] = [
    ConformanceRule(
      "SCALE-01", .required,
      title: "every observer is served at 1, 63, 64, 65, 1,000 and 10,000 observers",
      intent: "A backend that keeps observers in a word-sized mask or a small inline buffer"
        + " drops those past it; no other rule registers more than 64."
    ) { context in
      var verdict = Verdict()
      let everyValue = context.has(.deliversEveryValue)
      let sizes = [1, 63, 64, 65] + [1_000, 10_000].map(context.configuration.volume)
      for count in sizes {
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
        // The wait is the rule's own, so it is progress for an isolated run until it gives up.
        // 10,000 observers get two minutes: on a quiet two-core machine swift-async-algorithms'
        // share() goes 7.5 s between the last observer's first value and the first one's second
        // with no callback (each side's next() trims the buffer by every side's position), and
        // several times that beside CI's sanitizer runs, well past a fixed ten seconds.
        context.settle(
          until: { received.withLock { $0.allSatisfy { $0.last == 2 } } },
          timeout: count > 1_000 ? .seconds(120) : .seconds(10))
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
    }
  ]
}
