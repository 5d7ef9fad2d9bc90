import ObservationCore

extension ReentrancyRules {
  /// REE-06 (suite 1.7.0): callbacks that write another subject, which writes back.
  static let otherSubjectRules: [ConformanceRule] = [
    ConformanceRule(
      "REE-06", .required,
      title: "callbacks of two subjects that write each other leave each on its last write",
      intent: "A view model's callback updates another model, whose observers write back:"
        + " a backend that guards reentrancy with one flag for every subject, or queues a"
        + " write to a subject that is not delivering where only the delivering one will"
        + " look, loses that write. Every other rule writes the subject that is delivering.",
      traits: [.nestsWrites]
    ) { context in
      var verdict = Verdict()
      // A's callback sets B, whose callback sets A: writes nested two deep.
      if case .bounded(let depth) = context.capabilities.maxReentrancyDepth, depth < 2 {
        return .notApplicable(
          "two subjects whose callbacks write each other nest their writes 2 deep; the backend"
            + " declares nested writes \(depth) deep at most")
      }
      let a = context.subject(0)
      let b = context.subject(100)
      let recorder = Recorder<Int>()
      // The values set on each subject, in the order their sets started.
      let written = Locked<[[Int]]>([[], []])
      func set(_ subject: TestSubject<Int>, _ index: Int, _ value: Int) {
        written.withLock { $0[index].append(value) }
        subject.value = value
      }
      // Observer #0 watches A, #1 and #2 watch B. #0 sets B twice on its first callback; #2
      // sets A on its first. No subject is written while it is delivering to an observer
      // that has yet to be called, so the outcome does not depend on observer order (REE-03
      // holds a backend to a write made while its own delivery is under way).
      let calls = Locked([0, 0, 0])
      let armed = Locked(false)
      func reacting(_ id: Int, _ action: @escaping () -> Void) -> (Int) -> Void {
        recorder.handler(id) { _ in
          guard armed.withLock({ $0 }) else { return }
          let first = calls.withLock { calls in
            calls[id] += 1
            return calls[id] == 1
          }
          if first { action() }
        }
      }
      let tokens = [
        a.observe(
          reacting(0) {
            set(b, 1, 101)
            set(b, 1, 102)
          }),
        b.observe(recorder.handler(1)),
        b.observe(reacting(2) { set(a, 0, 2) }),
      ]
      context.drain()
      context.forget(recorder)
      calls.withLock { $0 = [0, 0, 0] }
      armed.withLock { $0 = true }
      set(a, 0, 1)
      let beforeReturn = recorder.events.map { ($0.observer, $0.value) }
      let settled = { () -> Bool in
        let writes = written.withLock { $0 }
        return (0..<3).allSatisfy { id in
          recorder.values(of: id).last == writes[id == 0 ? 0 : 1].last
        }
      }
      context.settle(until: settled)
      context.drain()
      let writes = written.withLock { $0 }
      let finals = [a.value, b.value]
      let action =
        "A has observer #0, B has #1 and #2; set A = 1. #0 sets B = 101 and B = 102 on its first"
        + " callback; #2 sets A = 2 on its first (sets made: A \(writes[0]), B \(writes[1]))"
      let everyValue = context.has(.deliversEveryValue)
      let inOrder = context.has(.preservesValueOrderUnderReentrancy)
      for index in 0..<2 {
        verdict.expectEqual(
          finals[index], writes[index].last ?? (index == 0 ? 0 : 100),
          action + " (get on \(index == 0 ? "A" : "B") afterwards)")
      }
      for id in 0..<3 {
        let subject = id == 0 ? 0 : 1
        let values = recorder.values(of: id)
        let sets = writes[subject]
        let onlySet = values.allSatisfy(sets.contains) && Set(values).count == values.count
        let endsLast = values.last == sets.last
        let all = !everyValue || values.sorted() == sets.sorted()
        let ordered =
          !inOrder || values == sets.filter(values.contains)
        verdict.expect(
          onlySet && endsLast && all && ordered, action,
          expected: "observer #\(id) of \(subject == 0 ? "A" : "B") receives "
            + (everyValue ? "every value of \(sets)" : "part of \(sets)") + " once each"
            + (inOrder ? ", in the order set" : "")
            + ", ending with \(sets.last.map(String.init) ?? "none"), the last",
          observed: "it received \(brief(values))")
      }
      if context.has(.synchronousDelivery) {
        let late = recorder.events.count - beforeReturn.count
        verdict.expect(
          late == 0, action,
          expected: "every callback of it made before the top-level set A = 1 returns"
            + " (synchronousDelivery)",
          observed: "\(late) callbacks came after it returned")
      }
      // The handlers capture the other subject: cancelling breaks that cycle.
      for token in tokens { token.cancel() }
      return verdict.result
    }
  ]
}
