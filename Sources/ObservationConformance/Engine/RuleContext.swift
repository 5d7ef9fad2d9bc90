import Foundation
import ObservationCore

/// What a rule's check gets: the backend's declaration and fresh subjects.
final class RuleContext: @unchecked Sendable {
  /// The backend's name.
  let backendName: String
  /// The backend's declaration.
  let capabilities: BackendCapabilities
  /// Whether the rule binds (`false` when it runs as a probe).
  var isBinding = true
  /// The outcomes of the rules already run, for suite-level rules.
  internal var outcomes: [RuleID: RuleOutcome] = [:]
  internal let backend: any ObservationBackend
  internal let makeIntSubject: (Int, TokenLedger) -> TestSubject<Int>
  /// The tokens of the rule being run.
  internal var ledger = TokenLedger()
  /// How many separate subjects rules that repeat themselves use.
  internal let configuration: ConformanceConfiguration

  init<B: ObservationBackend>(backend: B, configuration: ConformanceConfiguration) {
    self.backendName = backend.name
    self.capabilities = backend.capabilities
    self.backend = backend
    self.configuration = configuration
    self.makeIntSubject = { TestSubject(backend.makeSubject(initialValue: $0), ledger: $1) }
  }

  /// A fresh `Int` subject.
  func subject(_ initialValue: Int = 0) -> TestSubject<Int> {
    makeIntSubject(initialValue, ledger)
  }

  /// A fresh subject of another value type, or `nil` if the backend only offers `Int`.
  func subject<Value>(of valueType: Value.Type, _ initialValue: Value) -> TestSubject<Value>? {
    guard let subject = backend.makeSubject(of: valueType, initialValue: initialValue) else {
      return nil
    }
    return TestSubject(subject, ledger: ledger)
  }

  func has(_ capability: Capability) -> Bool { capabilities.has(capability) }
}

extension RuleContext {
  /// Forgets what `recorder` saw so far, as a rule does once its observers are registered. A
  /// backend that replays on a later turn is first given its turns until every replay the
  /// rule's observers are owed has arrived (``LaterReplays``), so that such a replay is
  /// forgotten as one made before `observe` returned is, not counted among the values of the
  /// rule's own writes.
  func forget<Value>(_ recorder: Recorder<Value>) {
    takeReplays()
    recorder.reset()
  }

  /// Gives a backend that replays on a later turn its turns until every replay the rule's
  /// observers are owed has arrived (``LaterReplays``); for any other backend, returns at once.
  /// A rule that counts callbacks itself calls it before it starts counting.
  func takeReplays() {
    let replays = ledger.laterReplays
    if replays.areOwed { settle(until: { !replays.areOwed }) }
  }

  /// For a backend without synchronous delivery, lets its deliveries run until `condition`
  /// holds (up to `timeout`, ten seconds unless a rule knows a backlog may be ahead), then a
  /// little longer, so that a late extra delivery is seen too; for a synchronous backend,
  /// returns at once.
  func settle(until condition: () -> Bool, timeout: Duration = .seconds(10)) {
    guard !has(.synchronousDelivery) else { return }
    awaitDelivery(until: condition, timeout: timeout)
    backend.awaitDelivery(until: { false }, timeout: .milliseconds(5))
  }

  /// Like ``settle(until:)`` for a long asynchronous chain: waits as long as `progress` keeps
  /// growing (checked every two seconds), however slow the build or the machine, and stops when
  /// `condition` holds or the chain stalls.
  func settle(until condition: () -> Bool, progress: () -> Int) {
    guard !has(.synchronousDelivery) else { return }
    var seen = progress()
    while !awaitDelivery(until: condition, timeout: .seconds(2)) {
      let now = progress()
      if now == seen { break }
      seen = now
    }
    backend.awaitDelivery(until: { false }, timeout: .milliseconds(5))
  }

  /// The backend's wait for delivery, which gives up by itself after `timeout`: progress for
  /// an isolated run until then (``RuleProgress``).
  @discardableResult
  private func awaitDelivery(until condition: () -> Bool, timeout: Duration) -> Bool {
    RuleProgress.waiting(upTo: timeout) {
      backend.awaitDelivery(until: condition, timeout: timeout)
    }
  }

  /// For a backend without synchronous delivery, lets whatever it has scheduled run, then gives
  /// it a turn of 50 ms and lets what that scheduled run too, before a rule checks that
  /// something did *not* arrive; for a synchronous backend, returns at once. A backend that
  /// sees its queue (``ObservationBackend/awaitScheduledDeliveries(timeout:)``) is waited for
  /// as long as its deliveries take, so a slow machine (a sanitizer, a loaded CI) cannot push
  /// one past the rule's next step.
  func drain() {
    guard !has(.synchronousDelivery) else { return }
    RuleProgress.waiting(upTo: .seconds(10)) {
      backend.awaitScheduledDeliveries(timeout: .seconds(10))
    }
    backend.awaitDelivery(until: { false }, timeout: .milliseconds(50))
    RuleProgress.waiting(upTo: .seconds(10)) {
      backend.awaitScheduledDeliveries(timeout: .seconds(10))
    }
  }

  /// Iterations of a THR rule here: ``ConformanceConfiguration/stochasticIterations``, or at
  /// most ``ConformanceConfiguration/concurrencyProbeIterations`` when the rule only probes a
  /// backend that does not declare `threadSafe` (what it reports then is what a short run saw,
  /// not a guarantee).
  var stochasticIterations: Int {
    guard !isBinding && !has(.threadSafe) else { return configuration.stochasticIterations }
    return min(
      configuration.stochasticIterations, ConformanceConfiguration.concurrencyProbeIterations)
  }

}
