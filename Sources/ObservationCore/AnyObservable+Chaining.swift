extension AnyObservable {
  /// Creates a read-only handle from a getter and an observe function.
  public init(
    get: @escaping () -> Value,
    observe: @escaping (@escaping (Value) -> Void) -> AnyObservationToken
  ) {
    _get = get
    _observe = observe
    _observeWithCompletion = nil
  }

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
  /// Observing the result calls the handler at once with the current value (read through
  /// `value` where the backend does not replay), then once per change of the selected handle
  /// and once per change of this one. It assumes synchronous delivery: over a backend that
  /// replays later, on another turn, the current value arrives twice (read, then replayed).
  ///
  /// - Complexity: each change of this handle costs one cancellation and one registration.
  public func flatMapLatest<Inner>(
    _ select: @escaping (Value) -> AnyObservable<Inner>?
  )
    -> AnyObservable<Inner?>
  {
    let outer = self
    return AnyObservable<Inner?>(
      get: { select(outer.value)?.value },
      observe: { handler in
        let chain = ChainedObservation<Inner>()
        chain.start(outer: outer, select: select, handler: handler)
        return AnyObservationToken(chain)
      })
  }
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
    outerToken = outer.observe { [weak self] value in
      outerCalled = true
      self?.bind(select(value), handler: handler)
    }
    if !outerCalled && !isCancelled { bind(select(outer.value), handler: handler) }
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
    if generation == current { innerToken = token } else { token.cancel() }
    if !innerCalled && generation == current { handler(inner.value) }
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
