import ObservationCore

/// TERM: completion.
enum TerminationRules {
  private static let noAPI = "the subject offers no completion API (CompletableObservableValue)"

  static let all: [ConformanceRule] = [
    ConformanceRule(
      "TERM-01", .capability, binds: .when(.has(.supportsCompletion)),
      title: "no values after completion; a send after completion is ignored",
      intent: "Completion is a promise to observers that the stream is over."
    ) { context in
      let subject = context.subject(0)
      guard let observe = subject.observeWithCompletion, let complete = subject.complete else {
        return .notApplicable(noAPI)
      }
      var verdict = Verdict()
      let recorder = Recorder<Int>()
      let token = observe(recorder.handler(1)) {}
      context.forget(recorder)
      complete()
      for mutation in subject.mutations { mutation.apply(5) }
      context.drain()
      verdict.expectEqual(
        recorder.values(of: 1), [],
        "complete, then write 5 through every entry point (values delivered)")
      withExtendedLifetime(token) {}
      return verdict.result
    },
    ConformanceRule(
      "TERM-02", .capability, binds: .when(.has(.supportsCompletion)),
      title:
        "completion reaches each observer once, even if completed again from a completion handler",
      intent: "Teardown code in completion handlers runs twice if completion is re-entered."
    ) { context in
      let subject = context.subject(0)
      guard let observe = subject.observeWithCompletion, let complete = subject.complete else {
        return .notApplicable(noAPI)
      }
      var verdict = Verdict()
      var completions = [0, 0]
      let tokens = (0..<2).map { id in
        observe({ _ in }) {
          completions[id] += 1
          if id == 0 { complete() }
        }
      }
      complete()
      context.settle { completions.allSatisfy { $0 > 0 } }
      verdict.expectEqual(
        completions, [1, 1],
        "2 observers; #0's completion handler completes again (completions per observer)")
      withExtendedLifetime(tokens) {}
      return verdict.result
    },
    ConformanceRule(
      "TERM-03", .capability, binds: .when(.has(.supportsCompletion)),
      title: "an observer subscribing after completion gets the completion at once, and no value",
      intent: "Late subscribers must learn the stream is over instead of waiting forever, and must"
        + " not get a value that will never be followed.",
      traits: [.showsCapability]
    ) { context in
      let subject = context.subject(0)
      guard let observe = subject.observeWithCompletion, let complete = subject.complete else {
        return .notApplicable(noAPI)
      }
      var verdict = Verdict()
      subject.value = 3
      complete()
      let recorder = Recorder<Int>()
      var completed = 0
      let token = observe(recorder.handler(1)) { completed += 1 }
      verdict.expectEqual(
        completed, 1, "set 3, complete, then observe (completions before observe returned)")
      verdict.expectEqual(recorder.values(of: 1), [], "set 3, complete, then observe (values)")
      withExtendedLifetime(token) {}
      return verdict.result
    },
    ConformanceRule(
      "TERM-04", .capability, binds: .when(.has(.supportsCompletion)),
      title:
        "completion implies cancellation: observers are released and a later cancel is a no-op",
      intent: "After completion nothing should keep handlers alive until their tokens happen to go."
    ) { context in
      let subject = context.subject(0)
      guard let observe = subject.observeWithCompletion, let complete = subject.complete else {
        return .notApplicable(noAPI)
      }
      var verdict = Verdict()
      var canary: Canary? = Canary()
      weak let watched = canary
      let token = observe({ [canary] _ in canary?.touch() }) {}
      canary = nil
      complete()
      context.settle { watched == nil }
      verdict.expect(
        watched == nil, "observe with a closure capturing an object, complete, keep the token",
        expected: "the handler is released", observed: "it is still alive")
      token.cancel()
      token.cancel()
      return verdict.result
    },
    ConformanceRule(
      "TERM-05", .capability, binds: .when(.has(.supportsCompletion)),
      title: "the value after completion follows the declared policy through every mutation API",
      intent: "When one write API stores after completion and another does not, reading the"
        + " value depends on which API some other code happened to use."
    ) { context in
      let probe = context.subject(0)
      guard probe.complete != nil, let policy = probe.valueAfterCompletion else {
        return .notApplicable(noAPI)
      }
      var verdict = Verdict()
      for mutation in probe.mutations {
        let subject = context.subject(0)
        subject.value = 1
        subject.complete!()
        let entry = subject.mutations.first { $0.name == mutation.name }!
        entry.apply(9)
        let expected = policy == .frozen ? 1 : 9
        verdict.expect(
          subject.value == expected, "set 1, complete, write 9 through `\(mutation.name)`",
          expected: "value \(expected) (declared policy: \(policy.rawValue))",
          observed: "value \(subject.value)")
      }
      verdict.note(
        "entry points: \(probe.mutations.map(\.name).joined(separator: ", ")); policy \(policy.rawValue)"
      )
      return verdict.result
    },
  ]
}
