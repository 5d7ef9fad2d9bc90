import ObservationCore

/// The reference the differential test compares against: the catalogue's semantics written as
/// plainly as possible (an array of entries, linear scans, a queue of pending writes), with no
/// attention to cost.
final class ReferenceObservers: ObservableValue {
  struct Entry {
    let id: Int
    var handler: ((Int) -> Void)?
    let start: Int
  }

  final class Token: ObservationToken {
    weak var owner: ReferenceObservers?
    let id: Int
    init(owner: ReferenceObservers, id: Int) {
      self.owner = owner
      self.id = id
    }
    deinit { cancel() }
    func cancel() { owner?.cancel(id) }
  }

  let replays: Bool
  private var stored: Int
  private var entries: [Entry] = []
  private var writes = 0
  private var queue: [(number: Int, value: Int)] = []
  private var delivering = false
  private var nextID = 0

  init(_ initialValue: Int, replays: Bool) {
    stored = initialValue
    self.replays = replays
  }

  var value: Int {
    get { stored }
    set {
      stored = newValue
      writes += 1
      queue.append((writes, newValue))
      if !delivering { drain() }
    }
  }

  private func drain() {
    delivering = true
    while !queue.isEmpty {
      let write = queue.removeFirst()
      var index = 0
      while index < entries.count {
        let entry = entries[index]
        if entry.start < write.number, let handler = entry.handler { handler(write.value) }
        index += 1
      }
    }
    delivering = false
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    nextID += 1
    entries.append(Entry(id: nextID, handler: handler, start: writes))
    let token = Token(owner: self, id: nextID)
    if replays {
      if delivering {
        handler(stored)
      } else {
        delivering = true
        handler(stored)
        delivering = false
        drain()
      }
    }
    return token
  }

  private func cancel(_ id: Int) {
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
    let released = entries[index].handler.take()
    if !delivering { entries.remove(at: index) }
    _ = consume released
  }
}
