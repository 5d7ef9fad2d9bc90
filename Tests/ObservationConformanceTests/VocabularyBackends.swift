import ObservationCore

@testable import conformance_fixtures

/// An observer list that queues nested writes and reports a write made at the end of a chain
/// of reactions longer than its bound (a callback's write is one deeper than the write being
/// delivered) as a diagnostic, or, as a fault, only claims to: what a library that forbids or
/// warns about recursive sends declares with `maxReentrancyDepth` and `reportsMisuse`.
final class MisuseReportingObservers: ObservableValue, RemovesObservers, MisuseReporting {
  typealias Token = RemovingToken<MisuseReportingObservers>

  final class Entry {
    var handler: ((Int) -> Void)?
    /// Writes made before it registered: it gets only later ones.
    let start: Int
    init(handler: @escaping (Int) -> Void, start: Int) {
      self.handler = handler
      self.start = start
    }
  }

  let bound: Int
  let reports: Bool
  private(set) var misuseDiagnostics: [String] = []
  private var stored: Int
  private var entries: [Entry] = []
  private var byID: [Int: Entry] = [:]
  private var cancelled = 0
  private var writes = 0
  private var queue: [(number: Int, value: Int, depth: Int)] = []
  /// The depth of the write being delivered, or `nil` outside delivery.
  private var deliveringDepth: Int?
  private var nextID = 0

  init(_ initialValue: Int, bound: Int, reports: Bool) {
    stored = initialValue
    self.bound = bound
    self.reports = reports
  }

  var value: Int {
    get { stored }
    set {
      let depth = deliveringDepth.map { $0 + 1 } ?? 0
      if depth > bound && reports {
        misuseDiagnostics.append(
          "a write nested \(depth) deep, past the bound of \(bound): delivered anyway")
      }
      stored = newValue
      writes += 1
      queue.append((writes, newValue, depth))
      guard deliveringDepth == nil else { return }
      while !queue.isEmpty {
        let write = queue.removeFirst()
        deliveringDepth = write.depth
        var index = 0
        while index < entries.count {
          let entry = entries[index]
          if entry.start < write.number, let handler = entry.handler { handler(write.value) }
          index += 1
        }
      }
      deliveringDepth = nil
      compact()
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    nextID += 1
    let entry = Entry(handler: handler, start: writes)
    entries.append(entry)
    byID[nextID] = entry
    return Token(id: nextID, owner: self)
  }

  func remove(_ id: Int) {
    guard let entry = byID.removeValue(forKey: id) else { return }
    let released = entry.handler.take()
    cancelled += 1
    if deliveringDepth == nil && cancelled * 2 > entries.count { compact() }
    _ = consume released
  }

  private func compact() {
    entries.removeAll { $0.handler == nil }
    cancelled = 0
  }
}

/// A backend of ``MisuseReportingObservers`` declaring its bound and `reportsMisuse`.
struct MisuseReportingBackend: ObservationBackend {
  let bound: Int
  let reports: Bool

  var name: String { "misuse-reporting-bound-\(bound)" + (reports ? "" : "-silent") }

  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .deliversEveryValue, .synchronousDelivery, .preservesObserverOrder,
        .preservesValueOrderUnderReentrancy, .immediateCancellation, .cancelsOnTokenDeinit,
        .reportsMisuse,
      ],
      maxReentrancyDepth: .bounded(bound))
  }

  func makeSubject(initialValue: Int) -> MisuseReportingObservers {
    MisuseReportingObservers(initialValue, bound: bound, reports: reports)
  }
}

/// An observer list that delivers each write on a later turn, in write order, with its own
/// value, as a hop to a queue per write does: the turn is taken when the suite waits for
/// delivery (``HoppingBackend/awaitDelivery(until:timeout:)``).
final class HoppingObservers: ObservableValue, RemovesObservers {
  typealias Token = RemovingToken<HoppingObservers>

  /// Writes waiting for their turn, across every subject, in the order they were made.
  nonisolated(unsafe) static var turns: [() -> Void] = []

  private var stored: Int
  private var handlers = HandlerList<(Int) -> Void>()

  init(_ initialValue: Int) { stored = initialValue }

  var value: Int {
    get { stored }
    set {
      stored = newValue
      // Each observer registered now gets the value on the next turn, unless cancelled first.
      let recipients = handlers.all.map(\.id)
      Self.turns.append { [weak self] in
        guard let self else { return }
        for id in recipients { self.handlers.handler(id)?(newValue) }
      }
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    Token(id: handlers.append(handler), owner: self)
  }

  func remove(_ id: Int) { handlers.remove(id) }

  /// Takes every pending turn, including those the turns add.
  static func takeTurns() {
    // A batch at a time, in order: the turns a batch adds come after it, as from a queue.
    while !turns.isEmpty {
      let batch = turns
      turns = []
      for turn in batch { turn() }
    }
  }
}

/// A backend of ``HoppingObservers`` declaring asynchronous timing.
struct HoppingBackend: ObservationBackend {
  var name: String { "hopping" }

  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .asynchronousOrdered,
      [
        .deliversEveryValue, .preservesObserverOrder, .preservesValueOrderUnderReentrancy,
        .immediateCancellation, .cancelsOnTokenDeinit,
      ],
      maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> HoppingObservers { HoppingObservers(initialValue) }

  func awaitDelivery(until condition: () -> Bool, timeout: Duration) -> Bool {
    HoppingObservers.takeTurns()
    return condition()
  }
}
