import ObservationCore

/// INIT: registration and the initial value.
enum InitialValueRules {
  static let all: [ConformanceRule] = [
    ConformanceRule(
      "INIT-01", .capability, binds: .when(.has(.replaysCurrentValue)),
      title: "observe replays the current value once, before it returns",
      intent: "A view that renders from its observer must start from the value as it is now, not"
        + " the value the subject was created with, and must not render it twice. A backend"
        + " that declares replaysOnLaterTurn replays on its next turn instead, as the first"
        + " value the observer receives.",
      traits: [.showsCapability]
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      subject.value = 3
      let recorder = Recorder<Int>()
      let token = subject.observe(recorder.handler(1))
      guard context.has(.replaysOnLaterTurn) else {
        verdict.expectEqual(
          recorder.values(of: 1), [3], "set 3, then observe (values seen before observe returned)")
        withExtendedLifetime(token) {}
        return verdict.result
      }
      verdict.expectEqual(
        recorder.values(of: 1), [],
        "set 3, then observe (values seen before observe returned,"
          + " with the replay declared on a later turn)")
      context.settle { recorder.count >= 1 }
      context.drain()
      verdict.expectEqual(
        recorder.values(of: 1), [3], "set 3, observe, then give the backend its turns (values)")
      withExtendedLifetime(token) {}
      return verdict.result
    },
    ConformanceRule(
      "INIT-02", .capability, binds: .when(.lacks(.replaysCurrentValue)),
      title: "observe never calls the handler during registration",
      intent: "Code written for an event stream (no replay) would act twice on the same state if"
        + " registration called it.",
      traits: [.showsCapability]
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      subject.value = 3
      let recorder = Recorder<Int>()
      let token = subject.observe(recorder.handler(1))
      verdict.expectEqual(recorder.values(of: 1), [], "set 3, then observe")
      withExtendedLifetime(token) {}
      return verdict.result
    },
    ConformanceRule(
      "INIT-03", .capability, binds: .when(.has(.replaysCurrentValue)),
      title: "the replay goes only to the new observer",
      intent: "A replay broadcast to everyone would make every existing observer see a value that"
        + " did not change."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      subject.value = 4
      let recorder = Recorder<Int>()
      let existing = (1...3).map { subject.observe(recorder.handler($0)) }
      context.settle { (1...3).allSatisfy { !recorder.values(of: $0).isEmpty } }
      context.forget(recorder)
      let late = subject.observe(recorder.handler(9))
      context.settle { recorder.count >= 1 }
      verdict.expectEqual(
        recorder.callOrder, [9], "3 observers, then a 4th observes (observers called)")
      verdict.expectEqual(
        recorder.values(of: 9), [4], "3 observers, then a 4th observes (its values)")
      withExtendedLifetime((existing, late)) {}
      return verdict.result
    },
    ConformanceRule(
      "INIT-04", .required,
      title: "every observe is an independent subscription, even with the identical closure",
      intent: "Registries keyed by closure identity or by observer object silently merge or drop"
        + " registrations."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      var calls = 0
      let handler: (Int) -> Void = { _ in calls += 1 }
      var tokens = (0..<3).map { _ in subject.observe(handler) }
      context.drain()
      calls = 0
      subject.value = 1
      context.settle { calls >= 3 }
      verdict.expectEqual(calls, 3, "one closure registered 3 times, then set 1 (callbacks)")
      tokens[0].cancel()
      calls = 0
      subject.value = 2
      context.settle { calls >= 2 }
      verdict.expectEqual(calls, 2, "cancel one of the 3, then set 2 (callbacks)")
      tokens.removeAll()
      return verdict.result
    },
    ConformanceRule(
      "INIT-05", .capability, binds: .when(.has(.replaysCurrentValue)),
      title: "a set made by the handler during its own replay is not lost",
      intent: "Handlers that normalise a value (clamp, default) write back from their first call;"
        + " losing that write leaves the observer and the subject disagreeing.",
      traits: [.nestsWrites]
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      var wrote = false
      let token = subject.observe(
        recorder.handler(1) { _ in
          if !wrote {
            wrote = true
            subject.value = 7
          }
        })
      context.settle { recorder.values(of: 1).last == 7 }
      verdict.expectEqual(
        recorder.values(of: 1), [0, 7], "observe; the replay callback sets 7 (values seen)")
      verdict.expectEqual(subject.value, 7, "observe; the replay callback sets 7 (get afterwards)")
      withExtendedLifetime(token) {}
      return verdict.result
    },
  ]
}
