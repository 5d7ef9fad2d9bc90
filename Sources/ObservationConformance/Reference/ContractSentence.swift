/// The sentences of the contract a failure names (`the contract: …`), with their rules, worded
/// once for the exact comparison and the checkers of the histories no single model fixes.
enum ContractSentence {
  static let nothingAfterCancel = "after cancel returns, that observer gets nothing more (CAN-01)"
  static let lateSubscriberCompleted =
    "an observer subscribing after completion gets the completion at once, before observe"
    + " returns (TERM-03)"
  static let completionOnceToTheLive =
    "completion reaches each observer live when it was requested once, and no other"
    + " (TERM-02, TERM-04)"
  static let nothingAfterCompletion =
    "nothing is delivered once completion is requested, not even the rest of the broadcast a"
    + " callback completed in (TERM-01)"
  /// A value set before the observer subscribed, or after it was cancelled.
  static let onlyObserversRegisteredBefore =
    "a set reaches only the observers registered before it and not cancelled (DEL-01, SUB-01)"
  /// A callback the model does not make: an observer registered later, cancelled, or called
  /// twice.
  static let onlyObserversRegisteredBeforeOnce =
    "a set reaches only the observers registered before it and not cancelled, once each"
    + " (DEL-01, SUB-01)"
  /// A write under way when the observer subscribed, which its replay did not carry.
  static let lateSubscriberGetsValueInFlight =
    "an observer added during the delivery of v gets v exactly once: replayed, or with willSet"
    + " from the broadcast after the stored value's replay (SUB-02)"
  static let valueSet = "the callback argument is the value being set (DEL-04)"
  static let everyValueInOrder =
    "each set produces exactly one callback per live observer, with the value set, in the"
    + " order set (DEL-01, DEL-02)"
  static let coalescedInOrder =
    "coalesced delivery is an in-order subsequence ending with the final value (DEL-03)"
}
