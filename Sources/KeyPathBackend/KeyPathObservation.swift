import ObservationCore

/// An observation of a key path on a ``KeyPathObservable`` object; cancel it, or release it, to
/// stop observing.
///
/// It holds the observed object weakly and releases the handler when the object goes away.
public final class KeyPathObservation: ObservationToken {
  private struct Subscription {
    weak var registrar: KeyPathRegistrar?
    let key: AnyKeyPath
    let id: UInt64
  }

  private var subscriptions: [AccessRecording.AccessID: Subscription] = [:]
  /// The last access of the current path: a change there carries the leaf's new value.
  private var leaf: AccessRecording.AccessID?
  private var onWillChange: (() -> Void)?
  private var onDidChange: ((AccessRecording.AccessID, Any) -> Void)?
  private var rootRegistrar: ObjectIdentifier?
  private var isCancelled = false

  init() {}

  deinit { cancel() }

  /// Stops the observation and releases its handler.
  ///
  /// - Complexity: O(*d*) for a path of depth *d*.
  public func cancel() {
    guard !isCancelled else { return }
    isCancelled = true
    let current = subscriptions
    subscriptions.removeAll()
    for subscription in current.values {
      subscription.registrar?.remove(subscription.key, id: subscription.id)
    }
    let released = (onWillChange.take(), onDidChange.take())
    withExtendedLifetime(released) {}
  }

  /// The number of registrars this observation is registered with (one per object on the path).
  public var registrationCount: Int { subscriptions.count }

  func start<Root: KeyPathObservable, Value>(
    root: Root, keyPath: KeyPath<Root, Value>, options: KeyPathObservingOptions,
    leafIsTheValue: Bool = false, handler: @escaping (Root, KeyPathChange<Value>) -> Void
  ) {
    rootRegistrar = ObjectIdentifier(root.keyPathRegistrar)
    weak let weakRoot = root
    var last: Value
    var accesses: [AccessRecording.Access]
    (last, accesses) = AccessRecording.tracking { root[keyPath: keyPath] }
    // A key path that is one tracked property of the root observes what each write carries, as
    // a path ending in the value itself does: read again when a queued write's turn came, it
    // would give a later write's value twice and skip this one.
    let carriesTheValue =
      leafIsTheValue
      || (accesses.count == 1 && accesses[0].registrar === root.keyPathRegistrar
        && accesses[0].property == keyPath)
    bind(accesses)

    onWillChange = { [weak self] in
      guard let self, !self.isCancelled, options.contains(.prior), let root = weakRoot else {
        return
      }
      handler(
        root,
        KeyPathChange(newValue: nil, oldValue: options.contains(.old) ? last : nil, isPrior: true))
    }
    onDidChange = { [weak self] access, carried in
      guard let self, !self.isCancelled, let root = weakRoot else { return }
      let new: Value
      // Where the path ends in the tracked property itself, the write carries the new value,
      // which keeps writes queued during delivery in order. Otherwise (a computed property, an
      // intermediate) evaluate the path again, as KVO reads the new value after the change.
      if carriesTheValue, access == self.leaf, let value = carried as? Value {
        new = value
      } else {
        let evaluation = AccessRecording.tracking { root[keyPath: keyPath] }
        new = evaluation.0
        self.bind(evaluation.1)
      }
      let old = last
      last = new
      handler(
        root,
        KeyPathChange(
          newValue: options.contains(.new) ? new : nil,
          oldValue: options.contains(.old) ? old : nil, isPrior: false))
    }
    if options.contains(.initial) {
      DeliveryQueue.deliverNow {
        handler(
          root,
          KeyPathChange(
            newValue: options.contains(.new) ? last : nil, oldValue: nil, isPrior: false))
      }
    }
  }

  /// Registers for exactly `accesses`, dropping registrations no longer on the path.
  private func bind(_ accesses: [AccessRecording.Access]) {
    guard !isCancelled else { return }
    leaf = accesses.last?.id
    let wanted = Set(accesses.map(\.id))
    for (id, subscription) in subscriptions where !wanted.contains(id) {
      subscriptions[id] = nil
      subscription.registrar?.remove(subscription.key, id: subscription.id)
    }
    for access in accesses where subscriptions[access.id] == nil {
      let id = access.id
      let registration = access.registrar.add(
        access.key,
        willChange: { [weak self] in self?.onWillChange?() },
        didChange: { [weak self] value in self?.onDidChange?(id, value) },
        registrarGone: { [weak self] in self?.registrarWentAway(id) })
      subscriptions[id] = Subscription(
        registrar: access.registrar, key: access.key, id: registration)
    }
  }

  private func registrarWentAway(_ id: AccessRecording.AccessID) {
    subscriptions[id] = nil
    // The observed object itself is gone: nothing can change any more, so let the handler go.
    if id.registrar == rootRegistrar { cancel() }
  }
}
