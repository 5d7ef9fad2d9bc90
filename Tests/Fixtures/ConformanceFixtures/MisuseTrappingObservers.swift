import ObservationCore

/// An observer list that delivers nested writes recursively and traps on a write nested deeper
/// than its bound, as libraries that forbid deep recursive sends document; or, as a fault, only
/// declares that it traps (ERR-02 must then fail).
final class MisuseTrappingObservers: ObservableValue, RemovesObservers {
  typealias Token = RemovingToken<MisuseTrappingObservers>

  /// Nested writes the backend supports; one more traps.
  static let bound = 2

  let traps: Bool
  private var stored: Int
  private var entries: [(id: Int, handler: ((Int) -> Void)?)] = []
  private var depth = 0
  private var nextID = 0

  init(_ initialValue: Int, traps: Bool) {
    stored = initialValue
    self.traps = traps
  }

  var value: Int {
    get { stored }
    set {
      if depth > Self.bound && traps {
        fatalError("a write nested \(depth) deep, past the bound of \(Self.bound)")
      }
      stored = newValue
      depth += 1
      var index = 0
      while index < entries.count {
        if let handler = entries[index].handler { handler(newValue) }
        index += 1
      }
      depth -= 1
      if depth == 0 { entries.removeAll { $0.handler == nil } }
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    nextID += 1
    entries.append((nextID, handler))
    return Token(id: nextID, owner: self)
  }

  func remove(_ id: Int) {
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
    let released = entries[index].handler.take()
    if depth == 0 { entries.remove(at: index) }
    _ = consume released
  }
}

/// The backend of ``MisuseTrappingObservers``: `misuse-trap`, or `misuse-claimed-trap` for the
/// one that only declares it.
struct MisuseTrappingBackend: ObservationBackend {
  let traps: Bool

  var name: String { traps ? "misuse-trap" : "misuse-claimed-trap" }

  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet, [.deliversEveryValue, .synchronousDelivery, .trapsOnMisuse],
      maxReentrancyDepth: .bounded(MisuseTrappingObservers.bound))
  }

  func makeSubject(initialValue: Int) -> MisuseTrappingObservers {
    MisuseTrappingObservers(initialValue, traps: traps)
  }
}
