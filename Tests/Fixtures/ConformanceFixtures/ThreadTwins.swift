import ObservationConformance

/// The twins of the open points of threads: two correct thread-safe lists that deliver every
/// value synchronously and resolve the races of writers on several threads differently.
///
/// | Open point | ``SnapshotObservers`` | ``SerializingObservers`` (handing off) |
/// |---|---|---|
/// | callbacks to one observer when threads write at once | overlap | never overlap (`serializedDelivery`) |
/// | the order of writes whose `set` calls overlapped | each observer's own | one order for every observer |
/// | a write whose `set` overlapped a `cancel` on another thread | reaches the observer after its cancel returned | not once the cancel returned before the delivery reached the observer |
///
/// ``replayTwins`` are the twins of the value a replay carries when other threads write while
/// it is under way: the latest of those writes, or every one of them, after the replayed value.
///
/// All four pass every rule they declare, in process and isolated with the THR rules at full
/// strength (`OpenChoiceTwinTests`), and `ThreadTwinTests` makes each difference happen.
enum ThreadTwins {
  /// Writers deliver their own copies, at the same time.
  static let first = SnapshotBackend()
  /// One thread delivers at a time; a contended write is handed off to it.
  static let second = SerializingBackend(nestedWriteEndsDrain: false, declaresHandOff: true)

  /// Replaying lists whose replay catches up with the latest write another thread made
  /// meanwhile, or with every one of them.
  static let replayTwins = (
    first: SnapshotBackend(replay: .latest), second: SnapshotBackend(replay: .everyWrite)
  )
}
