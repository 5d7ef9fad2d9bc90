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
    recorder.reset()
    subject.value = value
    context.settle(until: { recorder.count >= 1 }, timeout: .seconds(120))
    verdict.expectEqual(
      recorder.callOrder, [1], "then one observer and set \(value) (observers called)")
    withExtendedLifetime(token) {}
  }

  static let all: [ConformanceRule] = [
    ConformanceRule(
      "MEM-01", .required,
      title: "cancel releases the handler and its captures while the token is still alive",
      intent: "Tokens are often stored long after cancelling; a handler they keep alive keeps"
        + " its captured view controller alive too."
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
        + " alive."
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
      let cycles = 100_000
      for index in 0..<cycles {
        let token = subject.observe { [canary] _ in canary?.touch() }
        if index % 2 == 0 {
          token.cancel()
        } else {
          token.cancel()
          token.cancel()
        }
      }
      canary = nil
      verdict.expect(
        watched == nil, "\(cycles) observe + cancel cycles",
        expected: "every handler released", observed: "a handler is still alive")
      if let count = subject.observerCount?() {
        verdict.expectEqual(count, 0, "\(cycles) observe + cancel cycles (observerCount)")
        verdict.note("observerCount \(count) after \(cycles) cycles")
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
        + " linger."
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
      let batches = 100
      let batchSize = 1_000
      var holders: [Holder] = []
      let cancelled = Locked(0)
      for batch in 1...batches {
        holders = (0..<batchSize).map { _ in Holder() }
        for holder in holders {
          holder.token = subject.observe { [canary] value in
            guard value == batch, let token = holder.token else { return }
            canary?.touch()
            holder.token = nil
            token.cancel()
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
        done == cycles, "\(cycles) observers, each cancelling itself in its callback",
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
