import ObservationCore
import ObservationFixtures

/// A nested observation written by hand, the way a small KVO-like chain often is: each node
/// keeps closures per property, and an observation of `root.next?.next?.title` registers on
/// each property along the path and, when one changes, registers again along the path as it
/// is now. With `fault == nil` it passes every rule it declares; its ``Fault`` is caught only
/// by DIFF-02, whose handlers rebind.
///
/// Its ``LateRegistration`` is the choice the contract leaves open when an observation is
/// registered while a write is under way, and its ``Rebinding`` the links through which the
/// observations of a changed property get a write made from one of their handlers: each pair
/// is the twins of that point.
final class RebindingNestedPathFixture: NestedPathFixture {
  /// Whether a write under way reaches an observation registered on the changed property
  /// while it is being delivered (from a handler).
  enum LateRegistration: String, CaseIterable, Sendable {
    /// A property calls the observers registered when it changed (and still registered).
    case notReached
    /// A property calls every observer registered when its turn in the loop comes, those
    /// registered during the change too: the new observation gets one callback more.
    case reached
  }

  /// When the observations of a changed property register along the path as it is now.
  enum Rebinding: String, CaseIterable, Sendable {
    /// Each just before its handler runs: a write a handler makes to the new path reaches the
    /// observations still waiting for their turn only through that turn.
    case eachBeforeItsHandler
    /// All of them before any handler runs: such a write reaches them through the new path
    /// at once too, and then their turn reports it again.
    case allBeforeAnyHandler
  }

  /// What a cancel does to the handler calls waiting for their turn, when the handlers are
  /// called on the turns of a ``TurnQueue`` (``LaterTurn``).
  enum LaterTurnCancel: String, CaseIterable, Sendable {
    /// The calls already waiting still run: `cancelsOnLaterTurn`, as an actor that delivers
    /// and removes in its own turns does.
    case keepsWaitingCalls
    /// The calls already waiting are dropped.
    case dropsWaitingCalls
    /// A fault: the cancel itself waits for a turn, so a change made after `cancel()` returned
    /// still finds the observation registered, and its call runs. It declares
    /// `cancelsOnLaterTurn`, which allows the changes made before the cancel only.
    case cancelsOnItsTurn
  }

  /// Handlers called on the turns of `queue` with the title read at the change, instead of in
  /// the change; `cancel` says what becomes of the calls waiting.
  struct LaterTurn {
    let queue: TurnQueue
    let cancel: LaterTurnCancel
  }

  enum Fault: String, CaseIterable, Sendable {
    /// On a change, the observation reads the new path, calls the handler, and only then
    /// registers along the path it read: a rebind made by the handler itself is undone, and the
    /// observation follows (and reports) a detached player. The KP rules rebind only from
    /// outside the handlers.
    case registersAlongThePathReadBeforeTheHandler
  }

  final class Node {
    var title: String {
      didSet { notify(\.titleObservers) }
    }
    var next: Node? {
      didSet { notify(\.nextObservers) }
    }
    var titleObservers: [Int: Observer] = [:]
    var nextObservers: [Int: Observer] = [:]
    let lateRegistration: LateRegistration
    let rebinding: Rebinding

    init(title: String, lateRegistration: LateRegistration, rebinding: Rebinding) {
      self.title = title
      self.lateRegistration = lateRegistration
      self.rebinding = rebinding
    }

    /// Calls the observers registered when the change was made that are still registered, or,
    /// with ``LateRegistration/reached``, those registered meanwhile too (each once); with
    /// ``Rebinding/allBeforeAnyHandler``, rebinds them all first.
    private func notify(_ observers: KeyPath<Node, [Int: Observer]>) {
      var called: Set<Int> = []
      repeat {
        let keys = self[keyPath: observers].keys.sorted().filter { !called.contains($0) }
        if keys.isEmpty { return }
        if rebinding == .allBeforeAnyHandler {
          // Rebinding may take an observation off this node; each is still reported.
          let waiting = keys.compactMap { key in self[keyPath: observers][key] }
          for observer in waiting { observer.rebind() }
          called.formUnion(keys)
          for observer in waiting { observer.changed() }
        } else {
          for key in keys {
            called.insert(key)
            self[keyPath: observers][key]?.changed()
          }
        }
      } while lateRegistration == .reached
    }
  }

  /// What a node keeps per observation: registering it again along its path, and reporting a
  /// change to it. It holds the observation weakly; its handle owns it.
  struct Observer {
    weak var observation: Observation?
    func rebind() {
      guard let observation, observation.handler != nil else { return }
      observation.register(along: observation.path)
    }
    func changed() { observation?.changed() }
  }

  /// What `observeTitle` hands out: the observation's only strong reference, so that its
  /// release cancels at once, even from inside the observation's own handler (while
  /// `changed()` still holds the observation).
  final class Handle: ObservationToken {
    let observation: Observation
    init(_ observation: Observation) { self.observation = observation }
    func cancel() { observation.cancel() }
    deinit { observation.cancelNow() }
  }

  final class Observation {
    let root: Node
    let depth: Int
    let fault: Fault?
    let laterTurn: LaterTurn?
    var handler: ((String?) -> Void)?
    /// The properties it is registered on: a node, and whether it is its title.
    var registrations: [(node: Node, title: Bool)] = []
    let key: Int

    init(
      root: Node, depth: Int, fault: Fault?, laterTurn: LaterTurn?, key: Int,
      handler: @escaping (String?) -> Void
    ) {
      self.root = root
      self.depth = depth
      self.fault = fault
      self.laterTurn = laterTurn
      self.key = key
      self.handler = handler
    }

    /// The nodes the path goes through now: the root, then each `next` up to the leaf's node.
    var path: [Node] {
      var nodes = [root]
      while nodes.count < depth, let next = nodes.last!.next { nodes.append(next) }
      return nodes
    }

    func leaf(of path: [Node]) -> String? { path.count == depth ? path.last!.title : nil }

    func register(along path: [Node]) {
      unregister()
      for (index, node) in path.enumerated() {
        let title = index == depth - 1
        let observer = Observer(observation: self)
        if title {
          node.titleObservers[key] = observer
        } else {
          node.nextObservers[key] = observer
        }
        registrations.append((node, title))
      }
    }

    func unregister() {
      for (node, title) in registrations {
        if title { node.titleObservers[key] = nil } else { node.nextObservers[key] = nil }
      }
      registrations = []
    }

    func changed() {
      guard handler != nil else { return }
      let path = self.path
      if fault == .registersAlongThePathReadBeforeTheHandler {
        handler?(leaf(of: path))
        guard handler != nil else { return }
        register(along: path)
      } else {
        register(along: path)
        call(with: leaf(of: path))
      }
    }

    /// Calls the handler with `title` now, or schedules the call for a later turn.
    func call(with title: String?) {
      guard let handler else { return }
      guard let laterTurn else { return handler(title) }
      switch laterTurn.cancel {
      case .keepsWaitingCalls, .cancelsOnItsTurn:
        laterTurn.queue.schedule { handler(title) }
      case .dropsWaitingCalls:
        laterTurn.queue.schedule { [weak self] in self?.handler?(title) }
      }
    }

    func cancel() {
      guard laterTurn?.cancel == .cancelsOnItsTurn else { return cancelNow() }
      laterTurn?.queue.schedule { self.cancelNow() }
    }

    func cancelNow() {
      unregister()
      // Released once the store is done, not inside it: the handler may hold this
      // observation's own handle, whose deinit cancels again.
      let released = handler
      handler = nil
      withExtendedLifetime(released) {}
    }
  }

  let fault: Fault?
  let lateRegistration: LateRegistration
  let rebinding: Rebinding
  let laterTurn: LaterTurn?
  private var nextKey = 0

  init(
    fault: Fault?, lateRegistration: LateRegistration = .notReached,
    rebinding: Rebinding = .eachBeforeItsHandler, laterTurn: LaterTurn? = nil
  ) {
    self.fault = fault
    self.lateRegistration = lateRegistration
    self.rebinding = rebinding
    self.laterTurn = laterTurn
  }

  func makeNode(title: String) -> AnyObject {
    Node(title: title, lateRegistration: lateRegistration, rebinding: rebinding)
  }

  func setNext(_ next: AnyObject?, of node: AnyObject) { (node as! Node).next = next as? Node }

  func setTitle(_ title: String, of node: AnyObject) { (node as! Node).title = title }

  func observeTitle(
    depth: Int, from root: AnyObject, _ handler: @escaping (String?) -> Void
  ) -> AnyObservationToken {
    nextKey += 1
    let observation = Observation(
      root: root as! Node, depth: depth, fault: fault, laterTurn: laterTurn, key: nextKey,
      handler: handler)
    let path = observation.path
    observation.register(along: path)
    observation.call(with: observation.leaf(of: path))
    return AnyObservationToken(Handle(observation))
  }
}

/// The correct ``OpenChoiceObservers`` as its subjects, with ``RebindingNestedPathFixture`` as
/// its nested observation, declared `nestedKeyPaths`.
struct RebindingNestedPathBackend: NestedPathBackend {
  let fault: RebindingNestedPathFixture.Fault?
  var lateRegistration = RebindingNestedPathFixture.LateRegistration.notReached
  var rebinding = RebindingNestedPathFixture.Rebinding.eachBeforeItsHandler
  private let subjects = OpenChoiceBackend(choices: .init())

  init(
    fault: RebindingNestedPathFixture.Fault?,
    lateRegistration: RebindingNestedPathFixture.LateRegistration = .notReached,
    rebinding: RebindingNestedPathFixture.Rebinding = .eachBeforeItsHandler
  ) {
    self.fault = fault
    self.lateRegistration = lateRegistration
    self.rebinding = rebinding
  }

  var name: String {
    "rebinding-chain-" + (fault?.rawValue ?? "correct")
      + (lateRegistration == .reached ? "-reaching-late-registrations" : "")
      + (rebinding == .allBeforeAnyHandler ? "-rebinding-all-first" : "")
  }

  var capabilities: BackendCapabilities {
    let base = subjects.capabilities
    return BackendCapabilities(
      timing: base.timing, base.flags.union([.nestedKeyPaths]),
      maxReentrancyDepth: base.maxReentrancyDepth)
  }

  func makeSubject(initialValue: Int) -> OpenChoiceObservers {
    subjects.makeSubject(initialValue: initialValue)
  }

  func makeNestedPathFixture() -> any NestedPathFixture {
    RebindingNestedPathFixture(
      fault: fault, lateRegistration: lateRegistration, rebinding: rebinding)
  }

  /// The correct twins of the open point "a nested-path observer registered while a write is
  /// under way".
  static let twins = (
    first: RebindingNestedPathBackend(fault: nil),
    second: RebindingNestedPathBackend(fault: nil, lateRegistration: .reached)
  )

  /// The correct twins of the open point "through which links a nested path's observers get a
  /// write made during a delivery".
  static let rebindingTwins = (
    first: RebindingNestedPathBackend(fault: nil),
    second: RebindingNestedPathBackend(fault: nil, rebinding: .allBeforeAnyHandler)
  )
}

/// ``RebindingNestedPathFixture`` with its handlers called on the turns of a ``TurnQueue``, over
/// ``TurnQueueBackend``'s subjects on the same queue, declared `cancelsOnLaterTurn` and
/// `nestedKeyPaths`: the twins of the open point "values waiting for their turn when an
/// observer is cancelled" on a nested path, and a broken chain whose cancel waits for a turn.
struct LaterTurnNestedPathBackend: NestedPathBackend, TurnQueueDriven {
  let cancel: RebindingNestedPathFixture.LaterTurnCancel
  private let subjects: TurnQueueBackend

  init(cancel: RebindingNestedPathFixture.LaterTurnCancel) {
    self.cancel = cancel
    subjects = TurnQueueBackend(
      removal: cancel == .dropsWaitingCalls ? .dropsPendingWrites : .keepsPendingWrites,
      declaringLaterTurn: true)
  }

  var queue: TurnQueue { subjects.queue }

  var name: String { "later-turn-chain-" + cancel.rawValue }

  var capabilities: BackendCapabilities {
    let base = subjects.capabilities
    return BackendCapabilities(
      timing: base.timing, base.flags.union([.nestedKeyPaths]),
      maxReentrancyDepth: base.maxReentrancyDepth)
  }

  func makeSubject(initialValue: Int) -> TurnQueueObservers {
    subjects.makeSubject(initialValue: initialValue)
  }

  func makeNestedPathFixture() -> any NestedPathFixture {
    RebindingNestedPathFixture(fault: nil, laterTurn: .init(queue: queue, cancel: cancel))
  }

  /// The correct twins: the calls waiting at a cancel still run, or are dropped.
  static let twins = (
    first: LaterTurnNestedPathBackend(cancel: .keepsWaitingCalls),
    second: LaterTurnNestedPathBackend(cancel: .dropsWaitingCalls)
  )
}
