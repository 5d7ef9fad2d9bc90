/// Delivers notifications one at a time: a write made while one is being delivered waits until
/// it is done (trampolining), across every registrar of the thread, so observers see writes in
/// the order they were made and nested writes never grow the stack.
enum DeliveryQueue {
  /// Numbers every write, so an observation registered during a delivery skips the writes made
  /// before it.
  static func nextWrite() -> UInt64 {
    let state = RegistryThreadState.current
    state.writeSequence &+= 1
    return state.writeSequence
  }

  static var currentWrite: UInt64 { RegistryThreadState.current.writeSequence }

  /// Runs `work` now, or after the delivery in progress if there is one.
  static func perform(_ work: @escaping () -> Void) {
    let state = RegistryThreadState.current
    if state.isDelivering {
      state.pending.append(work)
      return
    }
    deliverNow(work)
  }

  /// Runs `work` now, even inside another delivery (an `.initial` callback must arrive before
  /// `observe` returns); writes it makes still wait for the outermost delivery.
  static func deliverNow(_ work: () -> Void) {
    let state = RegistryThreadState.current
    if state.isDelivering {
      work()
      return
    }
    state.isDelivering = true
    work()
    while state.pendingStart < state.pending.count {
      let next = state.pending[state.pendingStart]
      state.pendingStart += 1
      next()
    }
    state.pending.removeAll(keepingCapacity: true)
    state.pendingStart = 0
    state.isDelivering = false
  }
}
