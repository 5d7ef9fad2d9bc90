/// The observers of one ``KeyPathObservable`` object, per tracked property.
///
/// Each object stores one: `let keyPathRegistrar = KeyPathRegistrar()`. Observations register
/// here for exactly the properties their key path reads, and move when the path changes.
/// Not thread-safe.
public final class KeyPathRegistrar {
  final class Entry {
    let id: UInt64
    let registeredAt: UInt64
    var willChange: (() -> Void)?
    var didChange: ((Any) -> Void)?
    var registrarGone: (() -> Void)?

    init(id: UInt64, registeredAt: UInt64) {
      self.id = id
      self.registeredAt = registeredAt
    }
  }

  private var entries: [AnyKeyPath: [Entry]] = [:]
  private var deallocationHandlers: [(id: UInt64, handler: () -> Void)] = []
  private var nextID: UInt64 = 0

  /// Creates an empty registrar.
  public init() {}

  /// Runs when the object that stores the registrar deallocates (nothing else keeps a
  /// registrar alive: observations hold it weakly).
  deinit {
    let all = entries.values.flatMap { $0 }
    entries.removeAll()
    for entry in all { entry.registrarGone?() }
    let handlers = deallocationHandlers
    deallocationHandlers.removeAll()
    for (_, handler) in handlers { handler() }
  }

  /// Calls `handler` when this registrar's object deallocates; ``WeakTracked`` uses it to report
  /// a weak reference that zeroes.
  func onDeallocation(_ handler: @escaping () -> Void) -> UInt64 {
    nextID += 1
    deallocationHandlers.append((nextID, handler))
    return nextID
  }

  /// The handlers added with ``onDeallocation(_:)`` and not withdrawn.
  var deallocationHandlerCount: Int { deallocationHandlers.count }

  /// Withdraws a handler added with ``onDeallocation(_:)``.
  func removeDeallocationHandler(_ id: UInt64) {
    guard let index = deallocationHandlers.firstIndex(where: { $0.id == id }) else { return }
    let removed = deallocationHandlers.remove(at: index)
    withExtendedLifetime(removed) {}
  }

  /// The number of live registrations, over all properties.
  public var observerCount: Int { entries.values.reduce(0) { $0 + $1.count } }

  func add(
    _ key: AnyKeyPath, willChange: @escaping () -> Void, didChange: @escaping (Any) -> Void,
    registrarGone: @escaping () -> Void
  ) -> UInt64 {
    nextID += 1
    let entry = Entry(id: nextID, registeredAt: DeliveryQueue.currentWrite)
    entry.willChange = willChange
    entry.didChange = didChange
    entry.registrarGone = registrarGone
    entries[key, default: []].append(entry)
    return nextID
  }

  func remove(_ key: AnyKeyPath, id: UInt64) {
    guard let index = entries[key]?.firstIndex(where: { $0.id == id }) else { return }
    let entry = entries[key]!.remove(at: index)
    if entries[key]!.isEmpty { entries[key] = nil }
    // Released outside the dictionary access: the closures may own tokens whose deinit
    // comes back here.
    let released = (entry.willChange.take(), entry.didChange.take(), entry.registrarGone.take())
    withExtendedLifetime(released) {}
  }

  func willChange(_ key: AnyKeyPath) {
    guard let current = entries[key] else { return }
    for entry in current { entry.willChange?() }
  }

  func didChange(_ key: AnyKeyPath, to value: Any) {
    let write = DeliveryQueue.nextWrite()
    DeliveryQueue.perform { [weak self] in
      guard let self, let current = self.entries[key] else { return }
      for entry in current where entry.registeredAt < write {
        // A registration cancelled by an earlier observer of this write has lost its closure.
        entry.didChange?(value)
      }
    }
  }
}
