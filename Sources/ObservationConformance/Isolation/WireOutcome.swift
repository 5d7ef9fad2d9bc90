/// A ``RuleOutcome`` as the JSON of an `outcome` line (see ``ConformanceStreamLine``).
///
/// `kind` is ``RuleOutcome/Kind``'s raw value; the other fields are the case's associated
/// values, absent when the case has none, so that `passed(note: nil)` and `passed(note: "")`
/// stay apart.
struct WireOutcome: Codable, Hashable {
  var kind: String
  var note: String?
  var findings: [WireFinding]?
  var reason: String?
  var details: String?
  var signal: Int32?
  var seconds: Double?
  var binding: Bool?

  /// A ``Finding``'s three parts.
  struct WireFinding: Codable, Hashable {
    var action: String
    var expected: String
    var observed: String
  }

  /// Encodes `outcome`.
  init(_ outcome: RuleOutcome) {
    kind = outcome.kind.rawValue
    switch outcome {
    case .passed(let note): self.note = note
    case .failed(let findings):
      self.findings = findings.map {
        WireFinding(action: $0.action, expected: $0.expected, observed: $0.observed)
      }
    case .notApplicable(let reason), .untested(let reason): self.reason = reason
    case .probe(_, let details), .probeNotSeenViolated(let details): self.details = details
    case .crashed(let signal, let details, let binding):
      self.signal = signal
      self.details = details
      self.binding = binding
    case .timedOut(let seconds, let binding):
      self.seconds = seconds
      self.binding = binding
    }
  }

  /// The outcome encoded, or `nil` if a field its kind needs is missing.
  var outcome: RuleOutcome? {
    switch RuleOutcome.Kind(rawValue: kind) {
    case .passed: return .passed(note: note)
    case .failed:
      return findings.map {
        .failed($0.map { Finding(action: $0.action, expected: $0.expected, observed: $0.observed) })
      }
    case .notApplicable: return reason.map { .notApplicable($0) }
    case .untested: return reason.map { .untested($0) }
    case .probeObserved: return details.map { .probe(observed: true, details: $0) }
    case .probeNotObserved: return details.map { .probe(observed: false, details: $0) }
    case .probeNotSeenViolated: return details.map { .probeNotSeenViolated(details: $0) }
    case .crashed:
      guard let details, let binding else { return nil }
      return .crashed(signal: signal, details: details, binding: binding)
    case .timedOut:
      guard let seconds, let binding else { return nil }
      return .timedOut(seconds: seconds, binding: binding)
    case nil: return nil
    }
  }
}
