import ObservationCore

/// What an ``IsolatedConformanceRunner`` knows about one backend's run so far: the outcomes its
/// children reported, in the order they came, and the first rule still without one.
struct IsolatedRunSession {
  /// The rules, in the order the suite evaluates them.
  let order: [RuleID]
  /// The backend's name, which every child must greet with.
  let backendName: String
  /// The backend's declaration.
  let capabilities: BackendCapabilities
  /// Every unit's outcome so far: rules, and rules re-run through the erased handles.
  private(set) var known: [ConformanceStreamLine.Unit: RuleOutcome] = [:]
  /// ``known`` as `outcome` lines, in the order they came: what a restarted child reads.
  private(set) var knownLines = ""
  /// The index in ``order`` of the first rule without an outcome.
  private var position = 0

  init(order: [RuleID], backendName: String, capabilities: BackendCapabilities) {
    self.order = order
    self.backendName = backendName
    self.capabilities = capabilities
  }

  /// Whether every rule has its outcome.
  var isComplete: Bool { position == order.count }

  /// The first rule without an outcome, `nil` once there is none.
  var firstUnreported: RuleID? { isComplete ? nil : order[position] }

  /// Records `unit`'s outcome.
  ///
  /// - Complexity: amortized O(1), plus the length of the outcome's line.
  mutating func record(_ unit: ConformanceStreamLine.Unit, _ outcome: RuleOutcome) {
    guard known[unit] == nil else { return }
    known[unit] = outcome
    knownLines += ConformanceStreamLine.outcome(unit: unit, outcome).text + "\n"
    while position < order.count && known[.rule(order[position])] != nil { position += 1 }
  }
}
