import ObservationCore

extension DifferentialRules {
  /// The sentence of the contract that a backend's first departure from the reference model
  /// breaks, for DIFF-01's message: read off what the backend did there and what the script
  /// had done before it.
  ///
  /// The model follows the backend wherever the contract leaves a choice (observer order
  /// without a declared one, recursion or queueing of a nested write where value order is not
  /// declared or the only delivery under way is a replay, when and in which order a completion
  /// requested from a callback completes the observers), so the first difference is a step no
  /// allowed branch explains; this names the promise it breaks.
  ///
  /// - Parameters:
  ///   - events: everything the backend's replay of the script recorded.
  ///   - index: the first difference, counted in compared events (callbacks, completions,
  ///     reads).
  ///   - expectedEvents: the model's compared events.
  /// - Complexity: O(*e*) for *e* events.
  static func brokenSentence(
    events: [DifferentialScript.Event], at index: Int,
    expectedEvents: [DifferentialScript.Event], declared: BackendCapabilities
  ) -> String {
    let expected = index < expectedEvents.count ? expectedEvents[index] : nil
    var compared = 0
    var position = events.count
    for (offset, event) in events.enumerated() where event.isCompared {
      if compared == index {
        position = offset
        break
      }
      compared += 1
    }
    let actual = position < events.count ? events[position] : nil
    let actualRest = events.suffix(from: position).filter(\.isCompared)
    let expectedRest = expectedEvents.dropFirst(index)
    // The model's event the backend never makes, and the backend's the model never makes.
    let missing = expected.map { !actualRest.contains($0) } ?? false
    let extra = actual.map { !expectedRest.contains($0) } ?? false
    var cancelled: Set<Int> = []
    var completed: Set<Int> = []
    var completionRequested = false
    var subscribedAfterCompletion: Set<Int> = []
    // The writes under way when each observer subscribed.
    var underWay: [Int] = []
    var inFlightAtSubscription: [Int: [Int]] = [:]
    for event in events.prefix(position) {
      switch event {
      case .write(let value), .writeOther(let value): underWay.append(value)
      case .writeReturned: _ = underWay.popLast()
      case .observeStarted(let id) where !underWay.isEmpty:
        inFlightAtSubscription[id] = underWay
        if completionRequested { subscribedAfterCompletion.insert(id) }
      case .cancelReturned(let id): cancelled.insert(id)
      case .completion(let observer): completed.insert(observer)
      case .completeStarted: completionRequested = true
      case .observeStarted(let id) where completionRequested: subscribedAfterCompletion.insert(id)
      default: break
      }
    }
    switch (actual, expected) {
    case (.callback(let id, _)?, _) where cancelled.contains(id):
      return ContractSentence.nothingAfterCancel
    case (.callback?, _) where completionRequested:
      return ContractSentence.nothingAfterCompletion
    case (.completion(let id)?, _) where completed.contains(id):
      return "completion reaches each observer at most once (TERM-02)"
    case (_, .completion(let id)?) where subscribedAfterCompletion.contains(id):
      return ContractSentence.lateSubscriberCompleted
    case (_, .completion?), (.completion?, _):
      return ContractSentence.completionOnceToTheLive
    case (.observerCount?, .observerCount?):
      return "observerCount reports the observers registered and not cancelled (MEM-05, MEM-07)"
    case (.read?, .read?), (.readOther?, .readOther?):
      return completionRequested
        ? "the value after completion follows the declared policy (TERM-05)"
        : "get returns the last value set (REE-03, REE-05)"
    case (_, .callback(let id, let value)?)
    where missing && inFlightAtSubscription[id]?.contains(value) == true:
      return ContractSentence.lateSubscriberGetsValueInFlight
    case (_, .callback?) where missing:
      return "each set reaches every live observer before set returns (DEL-01, DEL-05)"
    case (.callback?, _) where extra:
      return ContractSentence.onlyObserversRegisteredBeforeOnce
    case (.callback(let id, _)?, .callback(let other, _)?) where id == other:
      return "each set reaches each live observer once, with its own value, in the order set"
        + (declared.has(.preservesValueOrderUnderReentrancy)
          ? ", also when a callback sets a new value (DEL-01, ORD-03)" : " (DEL-01, ORD-02)")
    case (.callback(_, let value)?, .callback(_, let other)?)
    where value == other && declared.has(.preservesObserverOrder):
      return "observers are called in registration order (ORD-01)"
    case (.callback?, _):
      return ContractSentence.onlyObserversRegisteredBeforeOnce
    case (_, .callback?):
      return "each set reaches every live observer before set returns (DEL-01, DEL-05)"
    default:
      return "the histories the declaration allows"
    }
  }
}
