import ObservationCore
import ObservationFixtures

/// An object of two observable properties, `a` and `b`, with an object-level will-change
/// signal, like an `ObservableObject` whose writes made during a delivery are queued (one
/// trampoline for the object) and delivered by the outermost `set`.
///
/// With ``Announcing/inTheSet`` (correct), every write is announced as its `set` begins, before
/// its store, queued or not. The two faults announce a queued write wrongly, which no rule that
/// writes only at the top level sees (TIM-03 and AGG-01 pass); only DIFF-01's aggregate scripts,
/// whose callbacks write either property while observers of the signal are live, catch them:
/// - ``Announcing/onItsTurn`` announces a write when its delivery begins: a queued write was
///   stored in its `set` already, so the signal comes late and reads the new value;
/// - ``Announcing/outermostOnly`` announces only a top-level write, as if the signal already
///   sent covered the writes its callbacks make.
final class AggregateObject: CancelsByID {
  enum Announcing: String, CaseIterable, Sendable {
    case inTheSet
    case onItsTurn
    case outermostOnly
  }

  /// What an observer watches.
  enum Kind {
    case a
    case b
    case signal
  }

  typealias Token = TurnQueueToken<AggregateObject>

  let announcing: Announcing
  private(set) var a = 0
  private(set) var b = 0
  /// Observers in registration order (ids grow along the list); a cancelled one leaves a
  /// tombstone until the list compacts, outside delivery.
  private var observers: [(id: Int, kind: Kind, handler: ((Int) -> Void)?)] = []
  private var nextID = 0
  private var delivering = false
  private var waiting: [(kind: Kind, value: Int, lastID: Int)] = []

  init(announcing: Announcing) {
    self.announcing = announcing
  }

  /// Writes property `kind` (`a` or `b`).
  func set(_ kind: Kind, _ value: Int) {
    let nested = delivering
    if !nested || announcing == .inTheSet { announce() }
    if case .b = kind { b = value } else { a = value }
    waiting.append((kind, value, nextID))
    guard !nested else { return }
    delivering = true
    var first = true
    while !waiting.isEmpty {
      let write = waiting.removeFirst()
      // The first is the top-level write, announced in its `set` above.
      if !first && announcing == .onItsTurn { announce() }
      first = false
      broadcast(write.value, to: write.kind, through: write.lastID)
    }
    delivering = false
    observers.removeAll { $0.handler == nil }
  }

  /// Registers `handler` for property `kind`'s writes, or for the signal.
  func observe(_ kind: Kind, _ handler: @escaping (Int) -> Void) -> Token {
    nextID += 1
    observers.append((nextID, kind, handler))
    return Token(owner: self, id: nextID)
  }

  func cancel(_ id: Int) {
    guard let index = observers.firstIndex(where: { $0.id == id }) else { return }
    observers[index].handler = nil
    if !delivering { observers.remove(at: index) }
  }

  /// The signal, to every observer of it live now; one that cancels meanwhile leaves a
  /// tombstone, so that the walk skips no one.
  private func announce() {
    let outermost = !delivering
    delivering = true
    var index = 0
    while index < observers.count {
      if case .signal = observers[index].kind { observers[index].handler?(0) }
      index += 1
    }
    if outermost {
      delivering = false
      observers.removeAll { $0.handler == nil }
    }
  }

  /// Calls the live observers of `kind` registered by `lastID`, in order.
  private func broadcast(_ value: Int, to kind: Kind, through lastID: Int) {
    var index = 0
    while index < observers.count && observers[index].id <= lastID {
      if observers[index].kind == kind { observers[index].handler?(value) }
      index += 1
    }
  }
}

/// Property `a` of an ``AggregateObject``, as the subject the rules drive; its object's signal
/// is the aggregated one.
final class AggregateProperty: AggregatingObservableValue {
  let object: AggregateObject

  init(_ object: AggregateObject) {
    self.object = object
  }

  var value: Int {
    get { object.a }
    set { object.set(.a, newValue) }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> AggregateObject.Token {
    object.observe(.a, handler)
  }

  func observeObjectWillChange(_ handler: @escaping () -> Void) -> AggregateObject.Token {
    object.observe(.signal) { _ in handler() }
  }
}

/// An ``AggregateObject`` as the two-property object the AGG rules and DIFF-01's aggregate
/// scripts observe.
final class AggregatePair: PropertyPairFixture {
  let object: AggregateObject

  init(_ object: AggregateObject) {
    self.object = object
  }

  func setA(_ value: Int) { object.set(.a, value) }
  func setB(_ value: Int) { object.set(.b, value) }
  func observeA(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    AnyObservationToken(object.observe(.a, handler))
  }
  func observeB(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    AnyObservationToken(object.observe(.b, handler))
  }
  func observeObjectWillChange(_ handler: @escaping () -> Void) -> AnyObservationToken? {
    AnyObservationToken(object.observe(.signal) { _ in handler() })
  }
  func observeSum(_ handler: @escaping (Int) -> Void) -> AnyObservationToken? { nil }
  var layout: String { "two properties of one AggregateObject (\(object.announcing))" }
  func readA() -> Int? { object.a }
  func readB() -> Int? { object.b }
}

/// A backend of ``AggregateObject``s: synchronous, every value, registration order, nested
/// writes queued, cancellation immediate and on release, an aggregated will-change signal.
struct AggregateBackend: PropertyPairBackend {
  let announcing: AggregateObject.Announcing

  var name: String {
    switch announcing {
    case .inTheSet: "aggregate-object"
    case .onItsTurn: "aggregate-object-announcing-queued-writes-on-their-turn"
    case .outermostOnly: "aggregate-object-announcing-outermost-writes-only"
    }
  }

  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .deliversEveryValue, .synchronousDelivery, .preservesObserverOrder,
        .preservesValueOrderUnderReentrancy, .immediateCancellation, .cancelsOnTokenDeinit,
        .aggregatedChangeSignal,
      ], maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> AggregateProperty {
    let object = AggregateObject(announcing: announcing)
    object.set(.a, initialValue)
    return AggregateProperty(object)
  }

  func makePropertyPair() -> any PropertyPairFixture {
    AggregatePair(AggregateObject(announcing: announcing))
  }
}
