import ObservationCore

/// META: the suite checks itself and the declaration.
enum MetaRules {
  /// The rules whose requirement names `capability`.
  private static func rules(mentioning capability: Capability) -> [ConformanceRule] {
    ConformanceSuite.rules.filter { $0.binding.mentions(capability) }
  }

  static let all: [ConformanceRule] = [
    ConformanceRule(
      "META-01", .required,
      title:
        "capability honesty: undeclared capabilities are probed, and the declared timing is the one observed",
      intent: "A declaration is only useful if it is checked both ways: what is declared holds,"
        + " what is not declared is measured, and a didSet backend is not secretly willSet.",
      traits: [.suiteLevel]
    ) { context in
      var verdict = Verdict()
      var probed: [String] = []
      for capability in Capability.allCases where !context.has(capability) {
        let outcomes = rules(mentioning: capability).compactMap { rule in
          context.outcome(of: rule.id).map { (rule.id, $0) }
        }
        let reported = outcomes.filter {
          if case .untested = $0.1 { return false }
          return true
        }
        guard !outcomes.isEmpty else { continue }
        verdict.expect(
          !reported.isEmpty,
          "look up the results of the rules about undeclared \(capability.rawValue)",
          expected: "at least one probe or reasoned n/a", observed: "none reported")
        let observed = reported.filter { $0.1.kind == .probeObserved }.map(\.0)
        if !observed.isEmpty {
          // Say where the behaviour comes from: the KP rules chain a backend without nested
          // observation of its own through the suite's flatMapLatest.
          let source =
            capability == .nestedKeyPaths && !context.hasNativeNestedObservation
            ? " (through the suite's flatMapLatest over the backend's subjects, not the backend"
              + " itself)" : ""
          probed.append(
            "\(capability.rawValue) observed by \(observed.map(\.rawValue).joined(separator: ","))\(source)"
          )
        }
      }
      let timing = context.capabilities.timing
      let declaredRule: RuleID =
        switch timing {
        case .didSet: .tim01
        case .willSet: .tim02
        case .transactional: .tim04
        case .asynchronousOrdered: .del05
        }
      verdict.expect(
        context.outcome(of: declaredRule)?.kind == .passed,
        "run \(declaredRule) for the declared timing \(timing.rawValue)",
        expected: "pass", observed: context.outcome(of: declaredRule)?.label ?? "not run")
      let opposite: RuleID? =
        switch timing {
        case .didSet: .tim02
        case .willSet: .tim01
        case .transactional, .asynchronousOrdered: nil
        }
      if let opposite {
        let outcome = context.outcome(of: opposite)
        verdict.expect(
          outcome?.kind == .probeNotObserved, "probe \(opposite), the opposite timing",
          expected: "not observed", observed: outcome?.label ?? "not run")
      }
      if !probed.isEmpty {
        verdict.note("undeclared but observed: " + probed.joined(separator: "; "))
      }
      return verdict.result
    },
    ConformanceRule(
      "META-02", .required,
      title: "the declaration is validated before any rule runs",
      intent: "Contradictory declarations (serialized delivery without thread safety, a"
        + " negative reentrancy bound) would make every later verdict meaningless."
    ) { context in
      do {
        try context.capabilities.validate()
        return .holds(note: context.capabilities.description)
      } catch let error as CapabilityDeclarationError {
        return .violated(
          error.problems.map {
            Finding(
              action: "validate the declaration", expected: "a coherent declaration", observed: $0)
          })
      } catch {
        return .violated([
          Finding(
            action: "validate the declaration", expected: "a coherent declaration",
            observed: "\(error)")
        ])
      }
    },
    ConformanceRule(
      "META-03", .required,
      title: "observer lists are compared as multisets unless preservesObserverOrder is declared",
      intent: "Without declared order, a rule that expects registration order would fail a"
        + " correct backend; with it, a multiset comparison would hide disorder."
    ) { context in
      var verdict = Verdict()
      verdict.expect(
        !sameObservers([1, 2], [2, 1], ordered: true)
          && sameObservers([1, 2], [2, 1], ordered: false)
          && !sameObservers([1, 1], [1, 2], ordered: false),
        "compare [1, 2] with [2, 1] and [1, 1] with [1, 2]",
        expected:
          "ordered comparison tells permutations apart; multiset comparison does not, but counts duplicates",
        observed: "the comparator disagrees")
      let ordered = context.has(.preservesObserverOrder)
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      let tokens = (0..<40).map { subject.observe(recorder.handler($0)) }
      context.forget(recorder)
      subject.value = 1
      context.settle { recorder.count >= 40 }
      verdict.expect(
        sameObservers(recorder.callOrder, Array(0..<40), ordered: ordered),
        "40 observers, set 1, compare as \(ordered ? "a sequence" : "a multiset")",
        expected: "each observer once\(ordered ? ", in registration order" : "")",
        observed: brief(recorder.callOrder))
      verdict.note(ordered ? "compared as sequences" : "compared as multisets")
      withExtendedLifetime(tokens) {}
      return verdict.result
    },
    ConformanceRule(
      "META-04", .required,
      title: "untested rules are listed with their reason in every report",
      intent: "A rule that silently disappears from a report reads as a pass.",
      traits: [.suiteLevel]
    ) { context in
      var verdict = Verdict()
      for rule in ConformanceSuite.rules {
        guard case .never(let reason) = rule.binding else { continue }
        let outcome = context.outcome(of: rule.id)
        var listed = false
        if case .untested(let text)? = outcome, !text.isEmpty, text == reason { listed = true }
        verdict.expect(
          listed, "look up \(rule.id) in the report", expected: "untested, with its reason",
          observed: outcome?.label ?? "missing")
      }
      let ids = ConformanceSuite.rules.map(\.id)
      verdict.expect(
        Set(ids).count == ids.count, "list the catalogue", expected: "unique rule identifiers",
        observed: "duplicates")
      return verdict.result
    },
  ]
}
