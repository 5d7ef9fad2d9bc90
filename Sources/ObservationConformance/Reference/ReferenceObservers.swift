import ObservationCore

/// The catalogue's semantics for a synchronous didSet backend that delivers every value,
/// written as plainly as possible (an array of entries, linear scans, a queue of pending
/// writes), with no attention to cost: the model DIFF-01 compares a backend with.
///
/// The declared capabilities that change what a script does are parameters: replay, duplicate
/// suppression, whether nested writes are queued (value order under reentrancy) or delivered
/// at once by recursion, and whether releasing a token cancels.
final class ReferenceObservers: ObservableValue {
  /// What the model does, from a backend's declaration.
  struct Semantics: Hashable {
    var replays: Bool
    var suppressesDuplicates: Bool
    var queuesNestedWrites: Bool
    var cancelsOnRelease: Bool

    init(_ capabilities: BackendCapabilities) {
      replays = capabilities.has(.replaysCurrentValue)
      suppressesDuplicates = capabilities.has(.suppressesDuplicates)
      queuesNestedWrites = capabilities.has(.preservesValueOrderUnderReentrancy)
      cancelsOnRelease = capabilities.has(.cancelsOnTokenDeinit)
    }
  }

  private struct Entry {
    let id: Int
    var handler: ((Int) -> Void)?
    /// The number of writes made before it registered: it gets only later ones.
    let start: Int
  }

  final class Token: ObservationToken {
    weak var owner: ReferenceObservers?
    let id: Int
    init(owner: ReferenceObservers, id: Int) {
      self.owner = owner
      self.id = id
    }
    deinit { if owner?.semantics.cancelsOnRelease == true { cancel() } }
    func cancel() { owner?.cancel(id) }
  }

  let semantics: Semantics
  private var stored: Int
  private var entries: [Entry] = []
  private var writes = 0
  private var queue: [(number: Int, value: Int)] = []
  private var delivering = 0
  private var nextID = 0

  init(_ initialValue: Int, semantics: Semantics) {
    stored = initialValue
    self.semantics = semantics
  }

  var value: Int {
    get { stored }
    set {
      if semantics.suppressesDuplicates && newValue == stored { return }
      stored = newValue
      writes += 1
      if semantics.queuesNestedWrites {
        queue.append((writes, newValue))
        if delivering == 0 { drain() }
      } else {
        broadcast((writes, newValue))
      }
    }
  }

  private func drain() {
    while !queue.isEmpty { broadcast(queue.removeFirst()) }
    if delivering == 0 { entries.removeAll { $0.handler == nil } }
  }

  private func broadcast(_ write: (number: Int, value: Int)) {
    delivering += 1
    var index = 0
    while index < entries.count {
      let entry = entries[index]
      if entry.start < write.number, let handler = entry.handler { handler(write.value) }
      index += 1
    }
    delivering -= 1
    if delivering == 0 { entries.removeAll { $0.handler == nil } }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    nextID += 1
    entries.append(Entry(id: nextID, handler: handler, start: writes))
    let token = Token(owner: self, id: nextID)
    if semantics.replays {
      delivering += 1
      handler(stored)
      delivering -= 1
      if delivering == 0 && semantics.queuesNestedWrites { drain() }
    }
    return token
  }

  private func cancel(_ id: Int) {
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
    let released = entries[index].handler.take()
    if delivering == 0 { entries.remove(at: index) }
    _ = consume released
  }
}
