import ObservationCore

/// SUB: subscribing during delivery.
enum SubscriptionRules {
  /// Three observers; observer `subscriber` subscribes observer 9 while 1 is delivered; then
  /// 2 and 3 are set. Returns observer 9's values.
  private static func lateObserverValues(_ context: RuleContext, subscriber: Int) -> [Int] {
    lateObserver(context, subscriber: subscriber).values
  }

  /// The values a late observer (#9, subscribed by `subscriber` while 1 is delivered) gets
  /// over writes 1, 2 and 3, and what `get` read just before it subscribed.
  private static func lateObserver(
    _ context: RuleContext, subscriber: Int
  ) -> (values: [Int], storedWhenSubscribed: Int?) {
    let subject = context.subject(0)
    let recorder = Recorder<Int>()
    var late: AnyObservationToken?
    var storedWhenSubscribed: Int?
    let tokens = (0..<3).map { id in
      subject.observe(
        recorder.handler(id) { value in
          if id == subscriber && value == 1 && late == nil {
            storedWhenSubscribed = subject.value
            late = subject.observe(recorder.handler(9))
          }
        })
    }
    context.drain()
    subject.value = 1
    context.settle { late != nil && recorder.values(of: 9).last == 1 }
    subject.value = 2
    context.settle { recorder.values(of: 9).last == 2 }
    subject.value = 3
    context.settle { recorder.values(of: 9).last == 3 }
    withExtendedLifetime((tokens, late)) {}
    return (recorder.values(of: 9), storedWhenSubscribed)
  }

  static let all: [ConformanceRule] = [
    ConformanceRule(
      "SUB-01", .required, binds: .when(.lacks(.replaysCurrentValue)),
      title: "an observer added during delivery of v does not get v, and gets every later value",
      intent: "A registry that walks a list it is appending to hands the in-flight value to"
        + " observers that did not exist when it was written."
    ) { context in
      var verdict = Verdict()
      for subscriber in [0, 2] {
        let values = lateObserverValues(context, subscriber: subscriber)
        verdict.expectEqual(
          values, [2, 3],
          "3 observers; #\(subscriber) subscribes a new observer while 1 is delivered; set 2, 3 (new observer's values)"
        )
      }
      return verdict.result
    },
    ConformanceRule(
      "SUB-02", .capability, binds: .when(.has(.replaysCurrentValue)),
      title: "an observer added during delivery of v gets v exactly once",
      intent: "With replay, a late observer can get the in-flight value twice (replay and"
        + " broadcast) or never (neither): both leave views inconsistent. With willSet the"
        + " value stored while v is delivered is the one before it: replaying that, then v"
        + " from the broadcast, gets v once too."
    ) { context in
      var verdict = Verdict()
      for subscriber in [0, 2] {
        let late = lateObserver(context, subscriber: subscriber)
        var allowed = [[1, 2, 3]]
        var expected = "[1, 2, 3]"
        // willSet: the stored value is the current one until v's callbacks are over.
        if context.capabilities.timing == .willSet, let stored = late.storedWhenSubscribed,
          stored != 1
        {
          allowed.append([stored, 1, 2, 3])
          expected +=
            ", or [\(stored), 1, 2, 3] (willSet: the value stored when it subscribed, then 1 from the broadcast)"
        }
        verdict.expect(
          allowed.contains(late.values),
          "3 observers; #\(subscriber) subscribes a new observer while 1 is delivered; set 2, 3 (new observer's values)",
          expected: expected, observed: "\(late.values)")
      }
      return verdict.result
    },
    ConformanceRule(
      "SUB-03", .capability, binds: .when(.has(.replaysCurrentValue)),
      title:
        "convergence: after every top-level set, every observer's latest value is the current one",
      intent: "Whatever happens inside callbacks (writes, new subscriptions), the system must"
        + " settle with every observer agreeing with the subject.",
      traits: [.nestsWrites]
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      var tokens: [AnyObservationToken] = []
      var nextID = 100
      for id in 0..<4 {
        tokens.append(
          subject.observe(
            recorder.handler(id) { value in
              if id == 0 && value % 10 == 1 { subject.value = value + 1 }
              if id == 2 && value % 10 == 2 {
                nextID += 1
                tokens.append(subject.observe(recorder.handler(nextID)))
              }
              if id == 3 && value % 10 == 5 { subject.value = value + 2 }
            }))
      }
      for value in [1, 5, 11, 15, 21] {
        subject.value = value
        context.drain()
        let current = subject.value
        var latest: [Int: Int] = [:]
        for event in recorder.events { latest[event.observer] = event.value }
        let stale = latest.filter { $0.value != current }
        verdict.expect(
          stale.isEmpty,
          "observers that write and subscribe from callbacks; top-level set \(value)",
          expected: "every observer's latest value is \(current)",
          observed:
            "stale observers: \(stale.sorted { $0.key < $1.key }.map { "#\($0.key)=\($0.value)" })")
      }
      withExtendedLifetime(tokens) {}
      return verdict.result
    },
    ConformanceRule(
      "SUB-04", .required,
      title:
        "subscribing from inside a callback, nested 10 deep, neither deadlocks nor corrupts the registry",
      intent: "Registries that lock around delivery deadlock, and ones that iterate a mutating"
        + " container corrupt it, when a callback subscribes."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      var tokens: [AnyObservationToken] = []
      var registered = 0
      func subscribe(_ id: Int) {
        registered += 1
        let token = subject.observe(
          recorder.handler(id) { _ in
            if id < 10 && registered == id + 1 { subscribe(id + 1) }
          })
        tokens.append(token)
      }
      subscribe(0)
      var writes = 0
      while tokens.count < 11 && writes < 20 {
        writes += 1
        subject.value = writes
        context.drain()
      }
      verdict.expectEqual(
        tokens.count, 11,
        "observer k subscribes observer k+1 from its callback, up to 10 (observers registered)")
      context.forget(recorder)
      subject.value = 1000
      context.settle { recorder.count >= 11 }
      verdict.expect(
        sameObservers(
          recorder.callOrder, Array(0..<tokens.count), ordered: context.has(.preservesObserverOrder)
        ),
        "then set 1000", expected: "each of the \(tokens.count) observers called once",
        observed: "called: \(recorder.callOrder)")
      withExtendedLifetime(tokens) {}
      return verdict.result
    },
  ]
}
