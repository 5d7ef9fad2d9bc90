import ObservationCore

/// EQ: duplicate suppression.
enum EqualityRules {
  /// A value whose type has no `==`.
  struct Opaque { var payload: Int }
  /// A class instance without `Equatable`.
  final class Reference {}

  /// How many callbacks writing `values` causes after registration, each write in its own turn
  /// of delivery for an asynchronous backend.
  private static func callbacks<Value>(
    _ subject: TestSubject<Value>, _ context: RuleContext, writing values: [Value]
  ) -> Int {
    var calls = 0
    let token = subject.observe { _ in calls += 1 }
    context.drain()
    calls = 0
    for value in values {
      subject.value = value
      context.drain()
    }
    withExtendedLifetime(token) {}
    return calls
  }

  static let all: [ConformanceRule] = [
    ConformanceRule(
      "EQ-01", .worded("CAP(suppressesDuplicates) / CAP(!suppressesDuplicates)"),
      title: "setting an equal value notifies never (suppressesDuplicates) or always (otherwise)",
      intent: "Whether `x = x` notifies decides whether observers may write back without looping;"
        + " the declaration must say which, for Int and String alike."
    ) { context in
      var verdict = Verdict()
      let suppresses = context.has(.suppressesDuplicates)
      let expected = suppresses ? 1 : 2
      let ints = callbacks(context.subject(0), context, writing: [5, 5])
      verdict.expectEqual(ints, expected, "Int subject: set 5, set 5 again (callbacks)")
      if let strings = context.subject(of: String.self, "") {
        let count = callbacks(strings, context, writing: ["a", "a"])
        verdict.expectEqual(
          count, expected, "String subject: set \"a\", set \"a\" again (callbacks)")
      } else {
        verdict.note("String part not run: the backend offers only Int subjects")
      }
      return verdict.result
    },
    ConformanceRule(
      "EQ-02", .capability, binds: .when(.has(.suppressesDuplicates)),
      title:
        "the duplicate test fits the value: ==, identity for class instances, never for non-Equatable",
      intent: "Suppressing by the wrong notion of equality hides real changes (a new object that"
        + " happens to compare equal) or suppresses values that cannot be compared.",
      traits: [.showsCapability]
    ) { context in
      guard let strings = context.subject(of: String.self, "") else {
        return .notApplicable("the backend offers only Int subjects")
      }
      var verdict = Verdict()
      verdict.expectEqual(
        callbacks(strings, context, writing: ["a", String("a".reversed())]), 1,
        "String: set \"a\", then an equal but separately built \"a\" (callbacks)")
      let shared = Reference()
      if let references = context.subject(of: Reference.self, Reference()) {
        verdict.expectEqual(
          callbacks(references, context, writing: [shared, shared]), 1,
          "class instance: set the same instance twice (callbacks)")
        verdict.expectEqual(
          callbacks(references, context, writing: [Reference()]), 1,
          "class instance: set a different instance (callbacks)")
      }
      if let opaque = context.subject(of: Opaque.self, Opaque(payload: 0)) {
        verdict.expectEqual(
          callbacks(opaque, context, writing: [Opaque(payload: 1), Opaque(payload: 1)]), 2,
          "non-Equatable value: set the same payload twice (callbacks)")
      }
      return verdict.result
    },
    ConformanceRule(
      "EQ-03", .required,
      title: "in-place mutation behaves like assigning the result",
      intent: "`value += 1` and `value.append(x)` go through a modify accessor; a backend can"
        + " notify twice, never, or with the old value. The report records what happens, both"
        + " through a get/set pair and through the subject type's own accessors (its `_modify`)."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      let token = subject.observe(recorder.handler(1))
      context.forget(recorder)
      subject.value += 1
      context.settle { recorder.count >= 1 }
      let viaGetSet = recorder.values(of: 1)
      context.forget(recorder)
      subject.modify { $0 += 1 }
      context.settle { recorder.count >= 1 }
      let inPlace = recorder.values(of: 1)
      let afterInPlace = subject.value
      context.forget(recorder)
      subject.value = 3
      context.settle { recorder.count >= 1 }
      let plain = recorder.values(of: 1)
      verdict.expectEqual(viaGetSet, [1], "Int: `value += 1` from 0 through get and set (values)")
      verdict.expectEqual(
        inPlace, [2], "Int: `value += 1` from 1 on the subject type itself (values delivered)")
      verdict.expectEqual(afterInPlace, 2, "Int: read after the in-place `+= 1` from 1")
      verdict.note(
        "`+=` through get/set: \(viaGetSet.count) callback(s) \(viaGetSet); in place:"
          + " \(inPlace.count) callback(s) \(inPlace); plain `=`: \(plain.count) callback(s)"
          + " \(plain)")
      if let strings = context.subject(of: String.self, "ab") {
        var seen: [String] = []
        let stringToken = strings.observe { seen.append($0) }
        seen.removeAll()
        strings.modify { $0.append("c") }
        context.settle { !seen.isEmpty }
        verdict.expectEqual(
          seen, ["abc"], "String: `value.append(\"c\")` to \"ab\" in place (values delivered)")
        verdict.note("`append`: \(seen.count) callback(s)")
        withExtendedLifetime(stringToken) {}
      }
      withExtendedLifetime(token) {}
      return verdict.result
    },
    ConformanceRule(
      "EQ-04", .required,
      title: "suppression never hides the current value from a new observer",
      intent: "A backend that skips equal writes must still replay (or deliver) the current value"
        + " to someone who was not there for the first write."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      subject.value = 5
      subject.value = 5
      let recorder = Recorder<Int>()
      let token = subject.observe(recorder.handler(1))
      context.settle { recorder.count >= 1 }
      if context.has(.replaysCurrentValue) {
        verdict.expectEqual(recorder.values(of: 1), [5], "set 5 twice, then observe (replay)")
      }
      context.forget(recorder)
      subject.value = 6
      context.settle { recorder.count >= 1 }
      verdict.expectEqual(recorder.values(of: 1), [6], "then set 6 (values)")
      withExtendedLifetime(token) {}
      return verdict.result
    },
  ]
}
