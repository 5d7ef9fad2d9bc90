import ObservationCore
import ObservationFixtures

/// AGG: several properties on one object.
enum AggregationRules {
  static let all: [ConformanceRule] = [
    ConformanceRule(
      "AGG-01", .capability, binds: .when(.has(.aggregatedChangeSignal)),
      title: "the object-level signal fires once per mutation, before the property observers",
      intent: "A view re-rendering on objectWillChange must be told once per change of any"
        + " property, and before the property's own observers run.",
      traits: [.showsCapability, .objectLevel]
    ) { context in
      let pair = context.propertyPair()
      var events: [String] = []
      guard let signal = pair.observeObjectWillChange({ events.append("object") }) else {
        return .notApplicable("the object has no aggregated signal (\(pair.layout))")
      }
      let tokens = [
        pair.observeA { events.append("a=\($0)") }, pair.observeB { events.append("b=\($0)") },
      ]
      events.removeAll()
      pair.setA(1)
      pair.setB(2)
      pair.setA(3)
      var verdict = Verdict()
      verdict.expectEqual(
        events, ["object", "a=1", "object", "b=2", "object", "a=3"],
        "observe the object and both properties; set a = 1, b = 2, a = 3 (events)")
      withExtendedLifetime((signal, tokens)) {}
      return verdict.result
    },
    ConformanceRule(
      "AGG-02", .required,
      title: "observing property A is never notified by a change to property B",
      intent: "Per-property observation that fires for every property is object-level"
        + " observation in disguise, and re-renders what did not change.",
      traits: [.objectLevel]
    ) { context in
      let pair = context.propertyPair()
      var aValues: [Int] = []
      let token = pair.observeA { aValues.append($0) }
      aValues.removeAll()
      pair.setB(5)
      pair.setB(6)
      pair.setA(1)
      var verdict = Verdict()
      verdict.expectEqual(aValues, [1], "observe a; set b = 5, b = 6, a = 1 (a's values)")
      verdict.note(pair.layout)
      withExtendedLifetime(token) {}
      return verdict.result
    },
    ConformanceRule(
      "AGG-03", .worded("UNTESTED unless the backend supports derived properties"),
      title: "observers of a derived property are notified when any input changes",
      intent: "A computed property (`fullName` from `first` and `last`) is only observable if"
        + " the backend tracks what it reads.",
      traits: [.objectLevel]
    ) { context in
      let pair = context.propertyPair()
      var sums: [Int] = []
      guard let token = pair.observeSum({ sums.append($0) }) else {
        return .notApplicable("untested: the backend has no derived properties (\(pair.layout))")
      }
      sums.removeAll()
      pair.setA(2)
      pair.setB(3)
      var verdict = Verdict()
      verdict.expectEqual(sums, [2, 5], "observe sum = a + b; set a = 2, b = 3 (sums)")
      withExtendedLifetime(token) {}
      return verdict.result
    },
  ]
}
