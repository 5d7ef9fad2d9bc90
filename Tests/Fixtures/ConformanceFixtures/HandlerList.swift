/// The test fixtures' observer list: handlers in the order they registered, each under an id
/// that grows with each registration.
///
/// A removal finds its entry by binary search and leaves a tombstone; the list compacts once
/// tombstones are more than half of it. The suite's rules at 100,000 observers (MEM-05, MEM-07,
/// SCALE-01) then cost a fixture O(n log n) rather than the O(n²) of removing from an array
/// by a linear search: about 30 s of a debug build's CPU per whole-suite run on a fixture.
/// What a fixture observably does is unchanged.
struct HandlerList<Handler> {
  private var entries: [(id: Int, handler: Handler?)] = []
  private var tombstones = 0
  /// The id the last registration got (0 before any).
  private(set) var lastID = 0

  /// Registers `handler` under the next id, and returns that id.
  ///
  /// - Complexity: amortized O(1).
  mutating func append(_ handler: Handler) -> Int {
    lastID += 1
    entries.append((lastID, handler))
    return lastID
  }

  /// Removes the handler registered under `id`, if it is still here, and returns it (so that
  /// a caller holding a lock can release it after unlocking).
  ///
  /// - Complexity: O(log n), amortized over the compactions.
  @discardableResult
  mutating func remove(_ id: Int, compacting: Bool = true) -> Handler? {
    guard let index = index(of: id), let handler = entries[index].handler else { return nil }
    entries[index].handler = nil
    tombstones += 1
    if compacting && needsCompaction { compact() }
    return handler
  }

  /// Whether tombstones are more than half of the list.
  var needsCompaction: Bool { tombstones * 2 > entries.count }

  /// Drops the tombstones.
  ///
  /// - Complexity: O(n).
  mutating func compact() {
    entries.removeAll { $0.handler == nil }
    tombstones = 0
  }

  /// The handler registered under `id`, if it is still here.
  ///
  /// - Complexity: O(log n).
  func handler(_ id: Int) -> Handler? {
    index(of: id).flatMap { entries[$0].handler }
  }

  /// The first live handler registered after `id`, under `lastID` or before, with its id: the
  /// next observer of a delivery that looks each one up when its turn comes.
  ///
  /// - Complexity: O(log n), plus the tombstones it passes.
  func first(after id: Int, through lastID: Int) -> (id: Int, handler: Handler)? {
    var index = firstIndex(notBelow: id + 1)
    while index < entries.count && entries[index].id <= lastID {
      if let handler = entries[index].handler { return (entries[index].id, handler) }
      index += 1
    }
    return nil
  }

  /// Where `id`'s entry is.
  private func index(of id: Int) -> Int? {
    let index = firstIndex(notBelow: id)
    return index < entries.count && entries[index].id == id ? index : nil
  }

  /// The first entry whose id is `id` or more, by binary search over the ids, which grow along
  /// the list.
  private func firstIndex(notBelow id: Int) -> Int {
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].id < id { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The live handlers in registration order, with their ids.
  ///
  /// - Complexity: O(n).
  var all: [(id: Int, handler: Handler)] {
    entries.compactMap { entry in entry.handler.map { (entry.id, $0) } }
  }

  /// The live handlers registered under `lastID` or before, in registration order.
  ///
  /// - Complexity: O(n).
  func handlers(through lastID: Int) -> [Handler] {
    entries.lazy.prefix { $0.id <= lastID }.compactMap(\.handler)
  }
}
