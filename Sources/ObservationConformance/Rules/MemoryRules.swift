import ObservationCore

/// MEM: memory and lifetime.
enum MemoryRules {
  /// After churn, one new observer and a write of `value`: the observer must be called once.
  /// An asynchronous backend may still be retiring 100,000 cancelled tasks (a minute under the
  /// address sanitizer), so the wait is long; it ends as soon as the value arrives.
  private static func expectServesNewObserver(
    _ subject: TestSubject<Int>, _ context: RuleContext, value: Int, _ verdict: inout Verdict
  ) {
    let recorder = Recorder<Int>()
    let token = subject.observe(recorder.handler(1))
    context.forget(recorder)
    subject.value = value
    context.settle(until: { recorder.count >= 1 }, timeout: .seconds(120))
    verdict.expectEqual(
      recorder.callOrder, [1], "then one observer and set \(value) (observers called)")
    withExtendedLifetime(token) {}
  }

  /// MEM-01's checks of a token's release, on a backend that cancels on release: dropping the
  /// last reference outside a delivery frees the handler's captures, and so does a callback
  /// that drops its own token or another observer's during a delivery.
  private static func expectReleaseFreesHandlers(_ context: RuleContext, _ verdict: inout Verdict) {
    let subject = context.subject(0)
    var outside: Canary? = Canary()
    weak let watchedOutside = outside
    var dropped: AnyObservationToken? = subject.observe { [outside] _ in outside?.touch() }
    outside = nil
    withExtendedLifetime(dropped) {}
    dropped = nil
    verdict.expect(
      watchedOutside == nil,
      "observe with a closure capturing an object, then release the token's last reference",
      expected: "the captured object is released", observed: "it is still alive")
    // During a delivery: observer #1 drops its own token and observer #2's, which it holds
    // the only references to; #3 is a bystander that must still be served.
    final class Holder { var tokens: [AnyObservationToken] = [] }
    let holder = Holder()
    var own: Canary? = Canary()
    var other: Canary? = Canary()
    weak let watchedOwn = own
    weak let watchedOther = other
    let released = Locked(false)
    holder.tokens.append(
      subject.observe { [own] value in
        own?.touch()
        guard value == 1 else { return }
        holder.tokens.removeAll()
        released.withLock { $0 = true }
      })
    holder.tokens.append(subject.observe { [other] _ in other?.touch() })
    own = nil
    other = nil
    let bystander = Recorder<Int>()
    let kept = subject.observe(bystander.handler(3))
    context.forget(bystander)
    subject.value = 1
    context.settle { released.withLock { $0 } && bystander.count >= 1 }
    context.drain()
    let didRelease = released.withLock { $0 }
    verdict.expect(
      didRelease && watchedOwn == nil && watchedOther == nil,
      "3 observers; set 1, and #1's callback releases the last references to its own token and"
        + " #2's",
      expected: "both handlers' captured objects are released once the delivery is over",
      observed: !didRelease
        ? "#1's callback never ran"
        : [(watchedOwn, "#1's"), (watchedOther, "#2's")].filter { $0.0 != nil }
          .map { "\($0.1) is still alive" }.joined(separator: ", "))
    verdict.expectEqual(bystander.values(of: 3), [1], "same delivery (the bystander #3's values)")
    withExtendedLifetime(kept) {}
  }

  static let all: [ConformanceRule] = [
    ConformanceRule(
      "MEM-01", .required,
      title: "cancel releases the handler and its captures while the token is still alive",
      intent: "Tokens are often stored long after cancelling; a handler they keep alive keeps"
        + " its captured view controller alive too. Where releasing the token cancels, the"
        + " release must free as much, outside a delivery and inside one (a callback that"
        + " drops its own token or another observer's)."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      var canary: Canary? = Canary()
      weak let watched = canary
      let token = subject.observe { [canary] _ in canary?.touch() }
      canary = nil
      token.cancel()
      verdict.expect(
        watched == nil, "observe with a closure capturing an object, cancel, keep the token",
        expected: "the captured object is released", observed: "it is still alive")
      withExtendedLifetime(token) {}
      guard context.has(.cancelsOnTokenDeinit) else {
        verdict.note("cancel only: releasing a token does not cancel on this backend")
        return verdict.result
      }
      expectReleaseFreesHandlers(context, &verdict)
      verdict.note("cancel, and the token's release outside and inside a delivery")
      return verdict.result
    },
    ConformanceRule(
      "MEM-02", .required,
      title: "no retain cycle through a stored token",
      intent: "The idiom `self.token = model.observe { [weak self] ... }` must let self go, and"
        + " with it the subject it owns and the handler's captures. The rule keeps no reference"
        + " of its own, so only the backend could keep any of them alive."
    ) { context in
      var verdict = Verdict()
      // The view model owns its subject and its token, as an app's does; the handler captures
      // the model weakly and a canary strongly. After the rule lets the model go, nothing but
      // the backend refers to any of them.
      final class ViewModel {
        let subject: TestSubject<Int>
        var token: AnyObservationToken?
        var seen = 0
        init(subject: TestSubject<Int>) { self.subject = subject }
      }
      var model: ViewModel? = ViewModel(subject: context.subject(0))
      var canary: Canary? = Canary()
      weak let watchedModel = model
      weak let watchedSubject = model!.subject.lifetime
      weak let watchedCanary = canary
      model!.token = model!.subject.observe { [weak model, canary] value in
        canary?.touch()
        model?.seen = value
      }
      canary = nil
      model!.subject.value = 1
      context.settle { model?.seen == 1 }
      let delivered = model!.seen == 1
      model = nil
      context.drain()
      let action =
        "a view model owns its subject and stores its token; the handler captures it weakly and"
        + " an object strongly; release the view model"
      verdict.expect(
        delivered, "set 1 while the view model is alive", expected: "its handler sees 1",
        observed: "it did not")
      verdict.expect(
        watchedModel == nil, action, expected: "the view model is deallocated",
        observed: "it is still alive")
      verdict.expect(
        watchedSubject == nil, action, expected: "the subject it owned is deallocated",
        observed: "it is still alive (a cycle between the subject and its tokens?)")
      verdict.expect(
        watchedCanary == nil, action, expected: "the handler's captured object is released",
        observed: "it is still alive")
      return verdict.result
    },
    ConformanceRule(
      "MEM-03", .required,
      title: "token-to-subject retention matches the declared tokenRetainsSubject",
      intent: "Whether holding a token keeps the model alive decides who must own the model;"
        + " the declaration must say which."
    ) { context in
      var verdict = Verdict()
      var subject: TestSubject<Int>? = context.subject(0)
      let token = subject!.observe { _ in }
      weak let lifetime = subject!.lifetime
      subject = nil
      let retains = context.has(.tokenRetainsSubject)
      verdict.expect(
        (lifetime != nil) == retains, "observe, keep the token, release the subject",
        expected: retains ? "the token keeps the subject alive" : "the subject is released",
        observed: lifetime != nil ? "the subject is alive" : "the subject was released")
      withExtendedLifetime(token) {}
      return verdict.result
    },
    ConformanceRule(
      "MEM-04", .capability, binds: .when(.lacks(.tokenRetainsSubject)),
      title: "when the subject dies, every handler is released even if tokens are still held",
      intent: "Tokens that outlive their subject must not keep handlers (and their captures)"
        + " alive.",
      traits: [.showsCapability]
    ) { context in
      var verdict = Verdict()
      var subject: TestSubject<Int>? = context.subject(0)
      var canary: Canary? = Canary()
      weak let watched = canary
      let tokens = (0..<3).map { _ in subject!.observe { [canary] _ in canary?.touch() } }
      canary = nil
      subject = nil
      verdict.expect(
        watched == nil, "3 observers capturing an object; keep the tokens, release the subject",
        expected: "the captured object is released", observed: "it is still alive")
      withExtendedLifetime(tokens) {}
      return verdict.result
    },
    ConformanceRule(
      "MEM-05", .required,
      title: "100,000 observe + cancel cycles leave the registry empty",
      intent: "Registries that tombstone instead of removing grow without bound under churn."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      var canary: Canary? = Canary()
      weak let watched = canary
      let cycles = context.configuration.volume(100_000)
      // Where releasing the token cancels, every third cycle only releases it: the registry
      // must end as empty as after cancels.
      let releases = context.has(.cancelsOnTokenDeinit)
      for index in 0..<cycles {
        let token = subject.observe { [canary] _ in canary?.touch() }
        switch index % 3 {
        case 0: token.cancel()
        case 1:
          token.cancel()
          token.cancel()
        default: if !releases { token.cancel() }
        }
      }
      canary = nil
      verdict.expect(
        watched == nil,
        "\(cycles) observe + cancel cycles"
          + (releases ? " (every third one releasing instead)" : ""),
        expected: "every handler released", observed: "a handler is still alive")
      if let count = subject.observerCount?() {
        verdict.expectEqual(count, 0, "\(cycles) observe + cancel cycles (observerCount)")
        verdict.note(
          "observerCount \(count) after \(cycles) cycles" + (releases ? ", a third released" : ""))
      } else {
        verdict.note("no observerCount hook: checked by releases and a delivery")
      }
      expectServesNewObserver(subject, context, value: 1, &verdict)
      return verdict.result
    },
    ConformanceRule(
      "MEM-06", .capability, binds: .when(.has(.oneShot)),
      title: "a one-shot registration releases its handler after it fires",
      intent: "One-shot APIs re-register on every change; each spent registration must not"
        + " linger.",
      traits: [.showsCapability]
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      var canary: Canary? = Canary()
      weak let watched = canary
      var fired = 0
      let token = subject.observe { [canary] _ in
        canary?.touch()
        fired += 1
      }
      canary = nil
      subject.value = 1
      context.settle { fired > 0 }
      verdict.expect(
        watched == nil, "observe with a closure capturing an object, set 1, keep the token",
        expected: "the handler is released after firing",
        observed: "it is still alive (fired \(fired) times)")
      withExtendedLifetime(token) {}
      return verdict.result
    },
    ConformanceRule(
      "MEM-07", .required,
      title: "100,000 observers cancelled during delivery leave the registry empty",
      intent: "A registry that defers removals made during delivery must carry them out:"
        + " MEM-05 cancels only outside delivery and cannot see a deferred list that is"
        + " never processed."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      var canary: Canary? = Canary()
      weak let watched = canary
      // Each observer cancels itself when it receives its batch's value: 100 batches of
      // 1,000, so that an asynchronous backend needs 100 deliveries, not 100,000.
      final class Holder { var token: AnyObservationToken? }
      let batches = context.configuration.volume(100)
      let batchSize = 1_000
      let releases = context.has(.cancelsOnTokenDeinit)
      var holders: [Holder] = []
      let cancelled = Locked(0)
      for batch in 1...batches {
        holders = (0..<batchSize).map { _ in Holder() }
        // Where releasing the token cancels, the even batches only drop it: the last
        // reference goes inside the delivery.
        let release = releases && batch % 2 == 0
        for holder in holders {
          holder.token = subject.observe { [canary] value in
            guard value == batch, let token = holder.token else { return }
            canary?.touch()
            holder.token = nil
            if release { withExtendedLifetime(token) {} } else { token.cancel() }
            cancelled.withLock { $0 += 1 }
          }
        }
        subject.value = batch
        context.settle { cancelled.withLock { $0 } >= batch * batchSize }
      }
      holders = []
      canary = nil
      context.drain()
      let cycles = batches * batchSize
      let done = cancelled.withLock { $0 }
      verdict.expect(
        done == cycles,
        "\(cycles) observers, each cancelling itself in its callback"
          + (releases ? " (in every other batch by releasing its token)" : ""),
        expected: "\(cycles) cancels made during delivery", observed: "\(done)")
      verdict.expect(
        watched == nil, "\(cycles) observers cancelled during delivery",
        expected: "every handler released", observed: "a handler is still alive")
      if let count = subject.observerCount?() {
        verdict.expectEqual(count, 0, "\(cycles) cancels during delivery (observerCount)")
      }
      expectServesNewObserver(subject, context, value: -1, &verdict)
      return verdict.result
    },
  ]
}
