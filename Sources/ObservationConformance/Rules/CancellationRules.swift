import ObservationCore

/// CAN: cancellation.
enum CancellationRules {
  static let all: [ConformanceRule] = [
    ConformanceRule(
      "CAN-01", .required,
      title: "after cancel returns, that observer gets nothing more",
      intent: "Cancelled observers that still fire touch torn-down views and leak work."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      let token = subject.observe(recorder.handler(1))
      subject.value = 1
      context.settle { recorder.values(of: 1).last == 1 }
      token.cancel()
      context.forget(recorder)
      for value in 2...5 { subject.value = value }
      context.drain()
      verdict.expectEqual(
        recorder.values(of: 1), [], "observe, set 1, cancel, set 2...5 (values after cancel)")
      return verdict.result
    },
    ConformanceRule(
      "CAN-02", .capability, binds: .when(.has(.cancelsOnTokenDeinit)),
      title: "releasing the last reference to the token cancels",
      intent: "Tying observation to the token's lifetime is what makes `[weak self]` plus a"
        + " stored token a complete lifecycle.",
      traits: [.showsCapability]
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      var token: AnyObservationToken? = subject.observe(recorder.handler(1))
      subject.value = 1
      withExtendedLifetime(token) {}
      token = nil
      context.forget(recorder)
      subject.value = 2
      context.drain()
      if context.has(.cancelsOnLaterTurn) {
        // The release takes effect on the backend's turn, behind the write of 1.
        let values = recorder.values(of: 1)
        verdict.expect(
          values == [] || values == [1],
          "observe, set 1, release the token, set 2 (values after release)",
          expected: "nothing set after the release: [] or [1] (cancelsOnLaterTurn)",
          observed: "\(values)")
      } else {
        verdict.expectEqual(
          recorder.values(of: 1), [],
          "observe, set 1, release the token, set 2 (values after release)")
      }
      return verdict.result
    },
    ConformanceRule(
      "CAN-03", .required,
      title: "cancel is idempotent and affects no other observer",
      intent: "Registries that remove by an index taken at registration remove the wrong"
        + " observer once earlier ones are gone, or remove twice on a repeated cancel."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      var tokens: [AnyObservationToken?] = (0..<4).map { subject.observe(recorder.handler($0)) }
      tokens[0]!.cancel()
      tokens[0]!.cancel()
      tokens[2]!.cancel()
      tokens[2]!.cancel()
      tokens[0] = nil
      tokens[2] = nil
      context.forget(recorder)
      subject.value = 1
      context.settle { recorder.count >= 2 }
      verdict.expect(
        sameObservers(recorder.callOrder, [1, 3], ordered: context.has(.preservesObserverOrder)),
        "4 observers; cancel #0 twice, cancel #2 twice, release both tokens; set 1",
        expected: "observers 1 and 3 called once each",
        observed: "observers called: \(recorder.callOrder)")
      tokens[1]!.cancel()
      context.forget(recorder)
      subject.value = 2
      context.settle { recorder.count >= 1 }
      verdict.expectEqual(recorder.callOrder, [3], "then cancel #1, set 2 (observers called)")
      withExtendedLifetime(tokens) {}
      return verdict.result
    },
    ConformanceRule(
      "CAN-04", .required,
      title: "cancelling one observer affects no other, even with the identical closure",
      intent: "Registries keyed by closure or observer identity cancel every registration of the"
        + " same closure at once."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      var calls = 0
      let shared: (Int) -> Void = { _ in calls += 1 }
      let tokens = (0..<3).map { _ in subject.observe(shared) }
      tokens[1].cancel()
      context.takeReplays()
      calls = 0
      subject.value = 1
      context.settle { calls >= 2 }
      verdict.expectEqual(
        calls, 2, "one closure observed 3 times, cancel the 2nd, set 1 (callbacks)")
      let recorder = Recorder<Int>()
      let late = subject.observe(recorder.handler(7))
      context.forget(recorder)
      calls = 0
      subject.value = 2
      context.settle { calls >= 2 && recorder.count >= 1 }
      verdict.expectEqual(calls, 2, "then a new observer, set 2 (callbacks of the shared closure)")
      verdict.expectEqual(
        recorder.values(of: 7), [2], "then a new observer, set 2 (the new observer's values)")
      withExtendedLifetime((tokens, late)) {}
      return verdict.result
    },
    ConformanceRule(
      "CAN-05", .required,
      title: "an observer may cancel itself during delivery; the others still get the value",
      intent: "Traversals that follow a removed node's cleared link skip the next observer."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      var tokens: [AnyObservationToken] = []
      var armed = false
      for id in 0..<5 {
        tokens.append(
          subject.observe(
            recorder.handler(id) { _ in
              if id == 1 && armed { tokens[1].cancel() }
            }))
      }
      context.drain()
      context.forget(recorder)
      armed = true
      subject.value = 1
      context.settle { recorder.count >= 5 }
      subject.value = 2
      context.settle { recorder.count >= 9 }
      verdict.expectEqual(
        recorder.count, 9, "5 observers, #1 cancels itself on delivery; set 1, set 2 (callbacks)")
      for id in [0, 2, 3, 4] {
        verdict.expectEqual(
          recorder.values(of: id), [1, 2], "same script (observer \(id)'s values)")
      }
      verdict.expectEqual(recorder.values(of: 1), [1], "same script (observer 1's values)")
      withExtendedLifetime(tokens) {}
      return verdict.result
    },
    ConformanceRule(
      "CAN-06", .worded("CAP(immediateCancellation); otherwise REQUIRED weaker form"),
      title:
        "mutual cancellation during delivery: exactly one survivor (with immediateCancellation)",
      intent: "With immediate cancellation, an observer cancelled mid-delivery must not get the"
        + " value in flight; without it, it may, but never a later one."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      var tokens: [AnyObservationToken] = []
      var armed = false
      for id in 0..<2 {
        tokens.append(
          subject.observe(
            recorder.handler(id) { _ in
              if armed { tokens[1 - id].cancel() }
            }))
      }
      context.drain()
      context.forget(recorder)
      armed = true
      subject.value = 1
      context.settle { recorder.count >= 1 }
      let firstRound = recorder.callOrder
      armed = false
      context.forget(recorder)
      subject.value = 2
      context.settle { recorder.count >= 1 }
      subject.value = 3
      context.settle { recorder.count >= 2 }
      let laterRound = recorder.callOrder
      let strong = firstRound.count == 1 && laterRound == [firstRound[0], firstRound[0]]
      if context.has(.immediateCancellation) {
        verdict.expect(
          strong, "A cancels B and B cancels A in their callbacks; set 1, then set 2 and 3",
          expected: "exactly one of A, B receives 1, and only that one receives 2 and 3",
          observed: "1 reached \(firstRound), 2 and 3 reached \(laterRound)")
      } else {
        // An observer is cancelled once its partner ran.
        let cancelled = Set(firstRound.map { 1 - $0 })
        let survivors = Set([0, 1]).subtracting(cancelled)
        verdict.expect(
          Set(laterRound).isDisjoint(with: cancelled)
            && laterRound.sorted() == (survivors.sorted().flatMap { [$0, $0] }),
          "A cancels B and B cancels A in their callbacks; set 1, then set 2 and 3",
          expected:
            "a cancelled observer receives nothing after the value in flight; survivors receive 2 and 3",
          observed: "1 reached \(firstRound), 2 and 3 reached \(laterRound)")
        verdict.note(
          strong
            ? "immediate cancellation observed though not declared"
            : "value in flight reached both: \(firstRound)")
      }
      withExtendedLifetime(tokens) {}
      return verdict.result
    },
    ConformanceRule(
      "CAN-07", .required,
      binds: .when(
        .lacks(.tokenRetainsSubject),
        otherwise: .notApplicable(
          "tokens keep the subject alive, so it cannot be gone while a token exists")),
      title: "cancelling after the subject is gone is a safe no-op",
      intent: "Tokens outlive subjects routinely (a cell reused after its model is gone);"
        + " cancelling then must not crash or touch freed memory."
    ) { context in
      var verdict = Verdict()
      var subject: TestSubject<Int>? = context.subject(0)
      let token = subject!.observe { _ in }
      weak var lifetime = subject!.lifetime
      subject = nil
      verdict.expect(
        lifetime == nil, "observe, keep the token, release the subject",
        expected: "the subject is gone (tokenRetainsSubject is not declared)",
        observed: "it is still alive")
      token.cancel()
      token.cancel()
      return verdict.result
    },
    ConformanceRule(
      "CAN-08", .capability, binds: .when(.has(.cancelsOnTokenDeinit)),
      title: "discarding the token at the call site ends the observation after any replay",
      intent: "`_ = subject.observe { ... }` is the commonest mistake with such APIs; users must"
        + " know it observes nothing.",
      traits: [.showsCapability]
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      _ = subject.observe(recorder.handler(1))
      subject.value = 1
      subject.value = 2
      context.drain()
      let values = recorder.values(of: 1)
      verdict.expect(
        values.isEmpty || values == [0], "`_ = observe(...)`, then set 1 and 2",
        expected: "nothing, or only the replayed 0", observed: "\(values)")
      return verdict.result
    },
    ConformanceRule(
      "CAN-09", .required,
      title: "a repeated cancel after the slot was reused affects nobody else",
      intent: "Registries that hand out slot numbers without a generation let an old token,"
        + " cancelled or released again, remove whoever took its slot since."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      var tokens: [AnyObservationToken?] = (0..<4).map { subject.observe(recorder.handler($0)) }
      tokens[1]!.cancel()
      // New observers take the freed slot, wherever the registry keeps it.
      tokens += (4..<6).map { subject.observe(recorder.handler($0)) }
      tokens[1]!.cancel()
      tokens[1] = nil
      context.forget(recorder)
      subject.value = 1
      context.settle { recorder.count >= 5 }
      context.drain()
      verdict.expect(
        sameObservers(
          recorder.callOrder, [0, 2, 3, 4, 5], ordered: context.has(.preservesObserverOrder)),
        "4 observers; cancel #1; register #4 and #5; cancel #1 again and release it; set 1",
        expected: "observers 0, 2, 3, 4 and 5 called once each",
        observed: "observers called: \(recorder.callOrder)")
      withExtendedLifetime(tokens) {}
      return verdict.result
    },
  ]
}
