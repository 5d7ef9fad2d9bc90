extension AnyObservable {
  /// Observes through an intermediate: for each value of this handle, observes the handle that
  /// `select` returns for it, cancelling the previous one; `nil` from `select` delivers `nil`.
  ///
  /// Chaining it observes a nested path over any backend, and stays right when an
  /// intermediate is replaced (the old one is no longer observed) or becomes `nil`:
  ///
  /// ```swift
  /// let title = root.controller.eraseToAnyObservable()
  ///   .flatMapLatest { $0.map { $0.player.eraseToAnyObservable() } }
  ///   .flatMapLatest { ($0 ?? nil).map { $0.title.eraseToAnyObservable() } }
  /// let token = title.observe { print($0 as Any) }
  /// ```
  ///
  /// Observing the result calls the handler with the current value, then once per change of the
  /// selected handle and once per change of this one. Where a handle replays during `observe`
  /// the replay is passed on; where it does not replay, its `value` is read at once; where it
  /// replays later (``replaysLater``, an asynchronous backend), the chain waits for that
  /// replay, and the result replays later too. The selected handles are expected to replay
  /// the way this one does, as the subjects of one backend do.
  ///
  /// - Complexity: each change of this handle costs one cancellation and one registration.
  public func flatMapLatest<Inner>(
    _ select: @escaping (Value) -> AnyObservable<Inner>?
  )
    -> AnyObservable<Inner?>
  {
    let outer = self
    return AnyObservable<Inner?>(
      value: { select(outer.value)?.value },
      observe: { handler in
        let chain = ChainedObservation<Inner>()
        let token = ChainedObservationToken(chain)
        chain.start(outer: outer, select: select, handler: handler)
        return AnyObservationToken(token)
      },
      replaysLater: outer.replaysLater)
  }
}

/// What ``AnyObservable/flatMapLatest(_:)`` hands out: the chain's only strong reference
/// outside a callback, so that releasing it cancels at once, even from inside the chain's own
/// handler, while the chain's running method still holds the chain itself.
final class ChainedObservationToken<Inner>: ObservationToken {
  private let chain: ChainedObservation<Inner>

  init(_ chain: ChainedObservation<Inner>) { self.chain = chain }

  func cancel() { chain.cancel() }

  deinit { chain.cancel() }
}

/// The token of a ``AnyObservable/flatMapLatest(_:)`` observation.
final class ChainedObservation<Inner>: ObservationToken {
  private var outerToken: AnyObservationToken?
  private var innerToken: AnyObservationToken?
  private var generation = 0
  private var isCancelled = false

  func start<Outer>(
    outer: AnyObservable<Outer>, select: @escaping (Outer) -> AnyObservable<Inner>?,
    handler: @escaping (Inner?) -> Void
  ) {
    var outerCalled = false
    let token = outer.observe { [weak self] value in
      outerCalled = true
      self?.bind(select(value), handler: handler)
    }
    // Cancelled during the replay (by the handler, say): nothing may keep it registered.
    if isCancelled { token.cancel() } else { outerToken = token }
    if !outerCalled && !isCancelled && !outer.replaysLater {
      bind(select(outer.value), handler: handler)
    }
  }

  private func bind(_ inner: AnyObservable<Inner>?, handler: @escaping (Inner?) -> Void) {
    guard !isCancelled else { return }
    let previous = innerToken.take()
    previous?.cancel()
    generation += 1
    let current = generation
    guard let inner else {
      handler(nil)
      return
    }
    var innerCalled = false
    let token = inner.observe { [weak self] value in
      innerCalled = true
      guard let self, !self.isCancelled, self.generation == current else { return }
      handler(value)
    }
    if generation == current && !isCancelled { innerToken = token } else { token.cancel() }
    if !innerCalled && generation == current && !inner.replaysLater { handler(inner.value) }
  }

  func cancel() {
    guard !isCancelled else { return }
    isCancelled = true
    let tokens = (outerToken.take(), innerToken.take())
    tokens.0?.cancel()
    tokens.1?.cancel()
  }

  deinit { cancel() }
}
