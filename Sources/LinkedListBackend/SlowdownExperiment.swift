#if OBSERVATORY_SLOWDOWN_EXPERIMENT
/// Extra work on every delivery, compiled only into the test build that measures what
/// `observatory ab` and `--metric instructions` detect (`-Xswiftc
/// -DOBSERVATORY_SLOWDOWN_EXPERIMENT`; see the README). A real change to the delivery path, not
/// a multiplied number: one call the optimizer cannot inline, doing four rounds of xorshift (a
/// chain of dependent steps it cannot fold), about 7 ns on the machine CI uses.
@inline(never)
public func _slowdownExperimentWork() {
  var state = _slowdownExperimentState
  for _ in 0..<4 {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
  }
  _slowdownExperimentState = state
}

/// State the extra work updates, so that the optimizer cannot remove it. Unchecked: the
/// experiment adds the work, not an exclusivity check.
@exclusivity(unchecked)
nonisolated(unsafe) public var _slowdownExperimentState: UInt64 = 0x9E37_79B9_7F4A_7C15
#endif
