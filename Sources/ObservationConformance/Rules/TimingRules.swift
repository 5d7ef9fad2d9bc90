import ObservationCore

/// TIM: when observers run relative to the store.
enum TimingRules {
  static let all: [ConformanceRule] = [
    ConformanceRule(
      "TIM-01", .capability, binds: .when(.timing(.didSet)),
      title: "didSet: inside the callback the subject already holds the argument",
      intent: "Observers that read the model (not just the argument) must see the new state.",
      traits: [.showsCapability]
    ) { context in
      var verdict = Verdict()
      let torn = Scenarios.readsInsideCallbacks(context).filter { $0.read != $0.value }
      verdict.expect(
        torn.isEmpty, "2 observers read the subject inside their callback; set 1...10",
        expected: "read == argument",
        observed: torn.prefix(3).map {
          "argument \($0.value), read \($0.read.map(String.init) ?? "nil")"
        }
        .joined(separator: "; "))
      return verdict.result
    },
    ConformanceRule(
      "TIM-02", .capability, binds: .when(.timing(.willSet)),
      title: "willSet: inside the callback the subject still holds the old value",
      intent: "ObservableObject-style observers run before the store; code that reads the model"
        + " there gets the previous state, and the suite makes that explicit.",
      traits: [.showsCapability]
    ) { context in
      var verdict = Verdict()
      let wrong = Scenarios.readsInsideCallbacks(context).filter { $0.read != $0.value - 1 }
      verdict.expect(
        wrong.isEmpty, "2 observers read the subject inside their callback; set 1...10",
        expected: "read == previous value (argument - 1)",
        observed: wrong.prefix(3).map {
          "argument \($0.value), read \($0.read.map(String.init) ?? "nil")"
        }
        .joined(separator: "; "))
      return verdict.result
    },
    ConformanceRule(
      "TIM-03", .capability, binds: .when(.has(.aggregatedChangeSignal)),
      title: "the object-level will-change signal fires before the store, once per mutation",
      intent: "objectWillChange drives re-rendering: firing after the store, or more than once,"
        + " renders stale or twice.",
      traits: [.showsCapability]
    ) { context in
      let subject = context.subject(0)
      guard let observeWillChange = subject.observeWillChange else {
        return .notApplicable(
          "the subject offers no object-level signal (AggregatingObservableValue)")
      }
      var verdict = Verdict()
      var reads: [Int] = []
      let token = observeWillChange { reads.append(subject.get()) }
      for value in 1...5 { subject.value = value }
      context.settle { reads.count >= 5 }
      verdict.expectEqual(
        reads, [0, 1, 2, 3, 4], "observe the object signal, set 1...5 (value read in each signal)")
      withExtendedLifetime(token) {}
      return verdict.result
    },
    ConformanceRule(
      "TIM-04", .capability, binds: .when(.timing(.transactional)),
      title: "transactional: writes made in one synchronous block arrive together",
      intent: "A transactional backend must never show a state that existed only halfway through"
        + " a block of writes. With one observed value this means: the block's writes arrive as"
        + " one delivery of the final value.",
      traits: [.showsCapability]
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      let token = subject.observe(recorder.handler(1))
      context.drain()
      context.forget(recorder)
      subject.value = 1
      subject.value = 2
      subject.value = 3
      context.settle { recorder.values(of: 1).last == 3 }
      verdict.expectEqual(
        recorder.values(of: 1), [3], "set 1, 2, 3 in one synchronous block (values seen)")
      withExtendedLifetime(token) {}
      return verdict.result
    },
  ]
}
