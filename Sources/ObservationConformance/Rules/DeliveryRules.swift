import Foundation
import ObservationCore

/// DEL: delivery.
enum DeliveryRules {
  static let all: [ConformanceRule] = [
    ConformanceRule(
      "DEL-01", .required, binds: .when(.has(.deliversEveryValue)),
      title: "each set produces exactly one callback per live observer, with the value set",
      intent: "Counting, logging and undo stacks break if a write is dropped or doubled.",
      traits: [.showsCapability]
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      let tokens = (1...3).map { subject.observe(recorder.handler($0)) }
      context.forget(recorder)
      for value in 1...100 { subject.value = value }
      context.settle { (1...3).allSatisfy { recorder.values(of: $0).last == 100 } }
      for id in 1...3 {
        let values = recorder.values(of: id)
        verdict.expect(
          values == Array(1...100), "3 observers, then set 1...100",
          expected: "observer \(id) receives 1...100 once each",
          observed: "observer \(id) received \(brief(values))")
      }
      withExtendedLifetime(tokens) {}
      return verdict.result
    },
    ConformanceRule(
      "DEL-02", .required,
      title: "with one writer and no reentrancy, all observers see the same sequence",
      intent: "Two views of the same property must never disagree about its history."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      let tokens = (1...3).map { subject.observe(recorder.handler($0)) }
      context.forget(recorder)
      let script = [5, 3, 9, 9, 1, 4, 4, 8, 2, 7]
      for value in script { subject.value = value }
      context.settle { (1...3).allSatisfy { recorder.values(of: $0).last == 7 } }
      let first = recorder.values(of: 1)
      verdict.expectEqual(
        first.last, 7, "3 observers, then set \(script) (observer 1's last value)")
      for id in 2...3 {
        verdict.expectEqual(
          recorder.values(of: id), first,
          "3 observers, then set \(script) (observer \(id) against observer 1)")
      }
      withExtendedLifetime(tokens) {}
      return verdict.result
    },
    ConformanceRule(
      "DEL-03", .capability, binds: .when(.lacks(.deliversEveryValue)),
      title: "coalesced delivery is an in-order subsequence ending with the final value",
      intent: "A backend may skip intermediate values, but never reorder them or miss the last one:"
        + " the UI must settle on the truth."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      let token = subject.observe(recorder.handler(1))
      context.forget(recorder)
      for value in 1...200 { subject.value = value }
      context.settle { recorder.values(of: 1).last == 200 }
      let values = recorder.values(of: 1)
      verdict.expect(
        values == values.sorted() && Set(values).count == values.count, "set 1...200",
        expected: "a strictly increasing subsequence of 1...200", observed: brief(values))
      verdict.expectEqual(values.last, 200, "set 1...200 (last value seen)")
      verdict.note("\(values.count) of 200 values delivered")
      withExtendedLifetime(token) {}
      return verdict.result
    },
    ConformanceRule(
      "DEL-04", .required,
      title: "the callback argument is the value being set",
      intent: "willSet backends tempt implementations to pass the old value; observers must get"
        + " the value being written whatever the timing."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      let token = subject.observe(recorder.handler(1))
      context.forget(recorder)
      let script = [11, 22, 33, 44, 55]
      for value in script { subject.value = value }
      context.settle { recorder.values(of: 1).last == 55 }
      let values = recorder.values(of: 1)
      if context.has(.deliversEveryValue) {
        verdict.expectEqual(values, script, "set \(script) (arguments)")
      } else {
        verdict.expect(
          values.allSatisfy(script.contains) && values.last == 55, "set \(script)",
          expected: "only values from the script, ending with 55", observed: "\(values)")
      }
      withExtendedLifetime(token) {}
      return verdict.result
    },
    ConformanceRule(
      "DEL-05", .worded("CAP(synchronousDelivery) / CAP(!synchronousDelivery)"),
      title:
        "synchronous backends finish every callback inside set; asynchronous ones never call back inside set",
      intent: "Callers rely on one or the other: reading derived state right after a write, or"
        + " never being re-entered from inside their own write."
    ) { context in
      var verdict = Verdict()
      let subject = context.subject(0)
      var insideSet = false
      var callsInside = 0
      var callsOutside = 0
      let tokens = (1...3).map { _ in
        subject.observe { _ in if insideSet { callsInside += 1 } else { callsOutside += 1 } }
      }
      callsInside = 0
      callsOutside = 0
      for value in 1...10 {
        insideSet = true
        subject.value = value
        insideSet = false
      }
      if context.has(.synchronousDelivery) {
        verdict.expectEqual(
          callsInside, 30, "3 observers, set 1...10 (callbacks before set returned)")
        Thread.sleep(forTimeInterval: 0.02)
        verdict.expectEqual(
          callsOutside, 0, "3 observers, set 1...10 (callbacks after set returned)")
      } else {
        context.settle { callsOutside > 0 }
        verdict.expectEqual(callsInside, 0, "3 observers, set 1...10 (callbacks inside set)")
        verdict.expect(
          callsOutside > 0, "3 observers, set 1...10, then wait",
          expected: "callbacks after set returned", observed: "none within the wait")
      }
      withExtendedLifetime(tokens) {}
      return verdict.result
    },
  ]
}
