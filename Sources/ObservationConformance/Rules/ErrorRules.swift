import ObservationCore

/// ERR: errors and misuse.
enum ErrorRules {
  static let all: [ConformanceRule] = [
    ConformanceRule(
      "ERR-01", .capability,
      title: "an error terminates the stream; nothing is delivered after it",
      levelText: "CAP where the backend can fail",
      intent: "Streams that can fail must stop at the failure, or observers act on values"
        + " produced after the error."
    ) { _ in
      .notApplicable(
        "the contract carries values only: no backend subject can fail (Combine subjects are"
          + " wrapped with Failure == Never)")
    },
    ConformanceRule(
      "ERR-02", .capability,
      title: "preconditions documented as traps do trap",
      levelText: "REQUIRED where the backend documents traps",
      intent: "A documented trap that does not fire lets misuse corrupt state silently."
    ) { _ in
      .notApplicable("the backend documents no trapping preconditions")
    },
    ConformanceRule(
      "ERR-03",
      .untested(
        reason: "the vocabulary has no capability yet by which a backend claims to report misuse"
          + " (libraries such as RxSwift print reentrancy warnings), so there is no claim to"
          + " check"),
      title: "claimed misuse diagnostics appear",
      intent: "A backend that promises to warn about misuse must actually warn."
    ) { _ in .notApplicable("untested") },
  ]
}
