/// The replays a rule's observers are still owed by a subject that replays on a later turn
/// (``ObservableValue/replaysLater``): a registration owes one until its first callback, which
/// is the replay, or until its observation ends (a cancel or the token's release).
///
/// ``RuleContext/forget(_:)`` waits for them, so that a rule forgets a replay made on a later
/// turn as it forgets one made before `observe` returned, instead of counting it among the
/// values its own writes produce.
final class LaterReplays: @unchecked Sendable {
  private let state = Locked<(next: Int, owed: Set<Int>)>((0, []))

  /// Records a registration that owes its replay, and returns its number.
  func owe() -> Int {
    state.withLock { state in
      state.next += 1
      state.owed.insert(state.next)
      return state.next
    }
  }

  /// The registration numbered `registration` got its replay, or ended; calling it again does
  /// nothing.
  func settle(_ registration: Int) { _ = state.withLock { $0.owed.remove(registration) } }

  /// Whether any registration still owes its replay.
  var areOwed: Bool { state.withLock { !$0.owed.isEmpty } }
}
