import Observation
import ObservationConformance
import ObservationCore
import SwiftObservationBackend
import Testing

/// `withObservationTracking` fires once. How an adapter re-arms it decides whether updates are
/// lost; these tests let the rules prove that ``TrackedValue``'s order (re-arm, then call the
/// handler) loses none, and that the obvious alternative (call the handler, then re-arm) does.
@Suite("Re-arming withObservationTracking")
struct RearmingTests {
  @Test("Re-arming before the handler: REE-01 and DEL-01 pass")
  func rearmFirstPasses() throws {
    let backend = SwiftObservationTrackingStrategy()
    for id: RuleID in ["REE-01", "DEL-01", "DEL-04"] {
      let outcome = ConformanceSuite.run(try #require(ConformanceSuite.rule(id)), on: backend)
      #expect(outcome.kind == .passed, "\(id) on \(backend.name): \(outcome.details)")
    }
  }

  @Test("Re-arming after the handler misses the write the handler makes (REE-01)")
  func rearmAfterHandlerIsCaught() throws {
    let outcome = ConformanceSuite.run(
      try #require(ConformanceSuite.rule("REE-01")), on: LateRearmingBackend())
    #expect(outcome.kind == .failed)
    #expect(outcome.details.contains("receives 2"), "\(outcome.details)")
  }

  @Test("A raw withObservationTracking registration fires again for a write made in onChange")
  func registrationFiresAgainDuringOnChange() {
    // The finding behind TrackedValue's one-firing-per-arming guard: the framework withdraws a
    // registration only after onChange returns.
    let object = Counter()
    let firings = Tally()
    withObservationTracking {
      _ = object.count
    } onChange: {
      firings.count += 1
      if firings.count == 1 { object.count = 2 }
    }
    object.count = 1
    #expect(firings.count == 2)
  }
}

@Observable
private final class Counter {
  var count = 0
}

/// The naive adapter: on a change it calls the handler, then arms the next registration.
@Observable
private final class LateRearmingValue: ObservableValue {
  private(set) var current: Int
  @ObservationIgnored private var writes: [Int] = []

  init(_ initialValue: Int) { current = initialValue }

  var value: Int {
    get { current }
    set {
      writes.append(newValue)
      current = newValue
      writes.removeLast()
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    let box = HandlerBox(handler)
    arm(box)
    return AnyObservationToken(HandlerReleasingToken(box))
  }

  private func arm(_ box: HandlerBox) {
    let firings = Tally()
    withObservationTracking {
      _ = current
    } onChange: { [weak self] in
      // Even the naive adapter takes only the first firing (see the test above).
      firings.count += 1
      guard let self, firings.count == 1, let handler = box.handler else { return }
      handler(self.writes[self.writes.count - 1])
      self.arm(box)
    }
  }
}

/// A counter the framework's `@Sendable` `onChange` closures can share (single-threaded here).
private final class Tally: @unchecked Sendable {
  var count = 0
}

private final class HandlerBox {
  var handler: ((Int) -> Void)?
  init(_ handler: @escaping (Int) -> Void) { self.handler = handler }
}

private final class HandlerReleasingToken: ObservationToken {
  private let box: HandlerBox
  init(_ box: HandlerBox) { self.box = box }
  func cancel() { box.handler = nil }
}

/// ``LateRearmingValue`` declared as the tracking backend declares itself.
private struct LateRearmingBackend: ObservationBackend {
  var name: String { "late-rearming" }
  var capabilities: BackendCapabilities { SwiftObservationTrackingStrategy().capabilities }
  func makeSubject(initialValue: Int) -> LateRearmingValue { LateRearmingValue(initialValue) }
}
