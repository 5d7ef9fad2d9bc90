#if OBSERVATORY_SLOWDOWN_EXPERIMENT
import Synchronization

/// Extra work on every delivery, compiled only into the test builds that measure what
/// `observatory ab` and `--metric instructions` detect (`-Xswiftc
/// -DOBSERVATORY_SLOWDOWN_EXPERIMENT`, with `-Xswiftc -DOBSERVATORY_SLOWDOWN_MEDIUM` or
/// `-Xswiftc -DOBSERVATORY_SLOWDOWN_SMALL` for smaller ones; see the article "Which tool answers
/// which question" in `ObservationHarness`'s documentation). A real change to the delivery
/// path, not a multiplied number: one call the optimizer cannot inline, doing rounds of
/// xorshift, a chain of dependent steps it cannot fold (12 rounds, 9 for the medium one, 7 for
/// the small one).
@inline(never)
public func _slowdownExperimentWork() {
  #if OBSERVATORY_SLOWDOWN_SMALL
  let rounds = 7
  #elseif OBSERVATORY_SLOWDOWN_MEDIUM
  let rounds = 9
  #else
  let rounds = 12
  #endif
  var state = _slowdownExperimentState.load(ordering: .relaxed)
  for _ in 0..<rounds {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
  }
  _slowdownExperimentState.store(state, ordering: .relaxed)
}

/// State the extra work updates, so that the optimizer cannot remove it: an atomic, whose
/// relaxed load and store are plain moves on x86-64 and ARM64, so the work stays what it was
/// when it was a plain global.
public let _slowdownExperimentState = Atomic<UInt64>(0x9E37_79B9_7F4A_7C15)
#endif
