import ObservationCore

/// ERASE: through the handles apps expose.
enum ErasureRules {
  static let all: [ConformanceRule] = [
    ConformanceRule(
      "ERASE-01", .required,
      title:
        "observing through the erased, read-only handle passes every rule the backend passes directly",
      intent: "Protocols cannot declare property wrappers, so apps hand out erased handles;"
        + " erasure that drops a replay, a cancellation or a lifetime guarantee breaks every"
        + " consumer that only sees the protocol.",
      traits: [.suiteLevel]
    ) { context in
      if context.backend is any ErasedView {
        return .notApplicable("this backend is already the erased view of another")
      }
      let erased = ConformanceSuite.outcomesThroughErasure(
        of: context.backend, configuration: context.configuration)
      var verdict = Verdict()
      var compared = 0
      // An erased property handle carries no object of several properties, nor a backend's
      // own nested observation: nested-path rules are compared only where they chain the
      // backend's subjects. Every other rule applies.
      let nativeNesting = context.hasNativeNestedObservation
      for rule in ConformanceSuite.rules
      where rule.traits.isDisjoint(with: [.suiteLevel, .objectLevel])
        && !(nativeNesting && rule.traits.contains(.followsNestedPath))
      {
        guard let direct = context.outcome(of: rule.id), let viaHandles = erased[rule.id] else {
          continue
        }
        let directPasses = [.passed, .probeObserved, .probeNotSeenViolated].contains(direct.kind)
        // A probe of undeclared concurrency promises nothing to keep through erasure.
        guard directPasses, !ConformanceSuite.isChildProcessProbe(rule, for: context.capabilities)
        else { continue }
        compared += 1
        let erasedPasses = [.passed, .probeObserved, .probeNotSeenViolated].contains(
          viaHandles.kind)
        verdict.expect(
          erasedPasses, "run \(rule.id) through AnyObservable + ObservationInput",
          expected: "\(rule.id) \(direct.label) as it does directly",
          observed: "\(viaHandles.label): \(viaHandles.details)")
      }
      verdict.note("\(compared) rules that pass directly also pass through the erased handles")
      return verdict.result
    },
    ConformanceRule(
      "ERASE-02", .required,
      title:
        "the subject type's own handles: sends reach observers as set does, observing sees what observe does",
      intent: "An input handle that reorders, drops or bypasses delivery, or a read-only handle"
        + " that filters, makes the encapsulated subject behave differently from the one its"
        + " owner tested. The handles are the ones the concrete type returns, since that is"
        + " what apps expose."
    ) { context in
      var verdict = Verdict()
      let script = [3, 1, 4, 1, 5, 9, 2, 6]
      func run(
        observe: (TestSubject<Int>, @escaping (Int) -> Void) -> AnyObservationToken,
        write: (TestSubject<Int>, Int) -> Void
      ) -> [[Int]] {
        let subject = context.subject(0)
        let recorder = Recorder<Int>()
        let tokens = (0..<2).map { observe(subject, recorder.handler($0)) }
        for value in script { write(subject, value) }
        context.settle { recorder.values(of: 1).last == script.last }
        withExtendedLifetime(tokens) {}
        return (0..<2).map { recorder.values(of: $0) }
      }
      let direct = run(observe: { $0.observe($1) }, write: { $0.value = $1 })
      let viaInput = run(observe: { $0.observe($1) }) { subject, value in
        // Rebuild the handle from the subject each time, as an app's computed property would.
        subject.makeInput().send(value)
      }
      verdict.expectEqual(
        viaInput, direct,
        "2 observers, write \(script) directly and through the type's eraseToInput() (histories)")
      let viaReadOnly = run(
        observe: { subject, handler in context.ledger.track(subject.makeReadOnly().observe(handler))
        },
        write: { $0.value = $1 })
      verdict.expectEqual(
        viaReadOnly, direct,
        "2 observers through the type's eraseToAnyObservable(), write \(script) (histories)")
      let subject = context.subject(0)
      subject.value = 7
      context.settle { subject.makeReadOnly().value == 7 }
      verdict.expectEqual(
        subject.makeReadOnly().value, subject.value,
        "set 7, read through the type's eraseToAnyObservable()")
      let handle: Any = context.subject(0).makeInput()
      verdict.expect(
        !(handle is any ObservableValue), "inspect ObservationInput's conformances",
        expected: "the input handle cannot be observed", observed: "it conforms to ObservableValue")
      return verdict.result
    },
  ]
}
