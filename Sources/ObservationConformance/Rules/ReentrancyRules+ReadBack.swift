import ObservationCore

extension ReentrancyRules {
  /// REE-05 (catalogue 1.1): a value set inside a callback reads back at once.
  static let readBackRules: [ConformanceRule] = [
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
    }
  ]
}
