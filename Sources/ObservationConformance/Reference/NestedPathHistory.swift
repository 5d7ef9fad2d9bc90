import ObservationCore

/// What DIFF-02 checks, event by event, as a nested-path script replays: the world the script
/// has made so far (the reference model of `root.controller?.player?.title`) and what each
/// observer's handler owes.
///
/// - **Initial leaf.** With synchronous delivery, `observe` calls the handler before it
///   returns.
/// - **Only the path's titles.** Every value is a title the path had in the current top-level
///   step (for an asynchronous backend, since it was last given its turns), through any mix of
///   the links it had then (``StepView``); titles are unique, so a title written on a player
///   detached before the step, or a controller's own title, is caught.
/// - **No callback without a change on the path.** With synchronous delivery, an observer gets
///   at most one callback per change in the step to a property such a path reads (the root's
///   controller, those controllers' players, those players' titles), plus the one `observe`
///   makes: a registration left on a detached object, or two on one, shows as one too many.
/// - **Nothing after cancel.** No callback after its `cancel` (or, with
///   `cancelsOnTokenDeinit`, the token's release) returned, except, without
///   `immediateCancellation`, the one in flight when a handler cancelled it, and, with
///   `cancelsOnLaterTurn`, a title the path had before the cancel returned (since the
///   backend's last turns): the cancel takes effect on the backend's turn, behind the changes
///   already waiting.
/// - **The current title at rest.** After each top-level step (with synchronous delivery) or
///   each `deliver` step, every live observer's latest value is the path's title now: a
///   rebind, a write made from a handler, or a change during a delivery may not be lost.
final class NestedPathHistory: @unchecked Sendable {
  /// The first property an event broke.
  struct Violation {
    let expected: String
    let observed: String
    /// The events recorded up to it, the last one its own.
    let eventCount: Int
  }

  /// The model of the world.
  struct World {
    var controller: Int? = 0
    var players: [Int?] = [0, 1, nil]
    var titles = (0..<NestedPathScript.players).map { "title-p\($0)" }

    /// `root.controller?.player?.title`.
    var leaf: String? {
      guard let controller, let player = players[controller] else { return nil }
      return titles[player]
    }

    mutating func apply(_ mutation: NestedPathScript.Mutation) {
      switch mutation {
      case .setController(let c): controller = c
      case .setPlayer(let p, let c): players[c] = p
      case .setTitle(let title, let p): titles[p] = title
      case .setControllerTitle: break
      }
    }
  }

  /// Every value each link and title had since the current top-level step began. A backend
  /// that queues a write made during a delivery delivers it later, through the registrations
  /// its observers had then: an observer may see the path through any mix of those links.
  struct StepView {
    var controllers: Set<Int?> = []
    var players: [Int: Set<Int?>] = [:]
    var titles: [Int: Set<String>] = [:]

    init(_ world: World) { record(world) }

    mutating func record(_ world: World) {
      controllers.insert(world.controller)
      for (controller, player) in world.players.enumerated() {
        players[controller, default: []].insert(player)
      }
      for (player, title) in world.titles.enumerated() { titles[player, default: []].insert(title) }
    }

    /// The properties any such mix of links reads.
    var path: Set<NestedPathScript.Mutation.Property> {
      var read: Set<NestedPathScript.Mutation.Property> = [.controller]
      for case let controller? in controllers {
        read.insert(.player(of: controller))
        for case let player? in players[controller, default: []] { read.insert(.title(of: player)) }
      }
      return read
    }

    /// The titles (or `nil`) any such mix of links gives.
    var leaves: Set<String?> {
      var leaves: Set<String?> = []
      for controller in controllers {
        guard let controller else {
          leaves.insert(nil)
          continue
        }
        for player in players[controller, default: []] {
          guard let player else {
            leaves.insert(nil)
            continue
          }
          for title in titles[player, default: []] { leaves.insert(title) }
        }
      }
      return leaves
    }
  }

  private struct Observer {
    var cancelling = false
    var cancelReturned = false
    /// Whether the handler was running, and so a value in flight, when its cancel started.
    var inFlightAtCancel = false
    /// With `cancelsOnLaterTurn`, the titles the path had when its cancel returned, since the
    /// backend's last turns: the changes that may still be waiting for it.
    var leavesAtCancel: Set<String?> = []
    var callbacks = 0
    var inCallback = 0
    var last: String??
    /// The callbacks it may still get in this top-level step (synchronous delivery).
    var budget: Int
    /// The step in which what it shows stopped being the model's to say: with willSet timing
    /// it was registered during a title's delivery (before the store), or, without value order
    /// under reentrancy, a title written from a callback may reach it before the title in
    /// flight. A callback in a later step makes it the model's again.
    var excusedSince: Int?
  }

  private struct State {
    var world = World()
    var view = StepView(World())
    var observers: [Int: Observer] = [:]
    var mutationsUnderWay = 0
    var violation: Violation?
    var events: [String] = []
    /// With willSet timing, the writes under way, whose stores come when they return.
    var underWay: [NestedPathScript.Mutation] = []
    /// The top-level step under way.
    var step = 0
  }

  private let state = Locked(State())
  let synchronous: Bool
  let immediateCancellation: Bool
  let cancelsOnLaterTurn: Bool
  let willSet: Bool
  let valueOrder: Bool

  init(_ declared: BackendCapabilities) {
    valueOrder = declared.has(.preservesValueOrderUnderReentrancy)
    synchronous = declared.has(.synchronousDelivery)
    willSet = declared.timing == .willSet
    immediateCancellation = declared.has(.immediateCancellation)
    cancelsOnLaterTurn = declared.has(.cancelsOnLaterTurn)
  }

  /// The first violated property.
  var violation: Violation? { state.withLock { $0.violation } }

  /// The last `count` events up to the first violation (or the end), for a failure's message.
  func lastEvents(_ count: Int) -> String {
    state.withLock { state in
      state.events.prefix(state.violation?.eventCount ?? state.events.count).suffix(count)
        .joined(separator: ", ")
    }
  }

  /// Whether every live observer's latest value is the path's title now.
  var isSettled: Bool {
    state.withLock { state in
      state.observers.values.allSatisfy { $0.cancelReturned || $0.last == .some(state.world.leaf) }
    }
  }

  private static func show(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "nil" }

  private func update(_ body: (inout State) -> Void) { state.withLock(body) }

  private static func fail(_ state: inout State, expected: String, observed: String) {
    guard state.violation == nil else { return }
    state.violation = Violation(
      expected: expected, observed: observed, eventCount: state.events.count)
  }

  /// A top-level step starts; `freshView` when what the path had before no longer counts (with
  /// synchronous delivery, every step; otherwise after the backend was given its turns).
  func stepStarted(_ index: Int, freshView: Bool) {
    update { state in
      state.step = index
      if freshView { state.view = StepView(state.world) }
      guard synchronous else { return }
      for id in state.observers.keys { state.observers[id]!.budget = 0 }
    }
  }

  func mutationStarted(_ mutation: NestedPathScript.Mutation) {
    update { state in
      state.events.append(mutation.description)
      let touches = state.view.path.contains(mutation.property)
      // With willSet timing the store comes after the callbacks: the value in flight is the
      // new one, but the world changes only when the write returns.
      var written = state.world
      written.apply(mutation)
      if willSet {
        state.underWay.append(mutation)
      } else {
        state.world = written
      }
      state.view.record(written)
      if state.mutationsUnderWay > 0 && !valueOrder && touches, case .setTitle = mutation {
        Self.excuseViews(in: &state)
      }
      state.mutationsUnderWay += 1
      for id in state.observers.keys where touches && !state.observers[id]!.cancelReturned {
        state.observers[id]!.budget += 1
      }
    }
  }

  func mutationReturned() {
    update { state in
      state.mutationsUnderWay -= 1
      state.events.append("returned")
      guard willSet, let mutation = state.underWay.popLast() else { return }
      state.world.apply(mutation)
      state.view.record(state.world)
    }
  }

  /// Excuses every live observer's view from the checks at rest until its next callback in a
  /// later step.
  private static func excuseViews(in state: inout State) {
    for id in state.observers.keys where state.observers[id]!.excusedSince == nil {
      state.observers[id]!.excusedSince = state.step
    }
  }

  func observeStarted(_ id: Int) {
    update { state in
      state.events.append("observe #\(id)")
      // A write still under way may reach it or not.
      state.observers[id] = Observer(budget: 1 + state.mutationsUnderWay)
      // With willSet timing, an observer registered during a title's delivery reads the title
      // before its store, and that write was sent before it came: it may show the old title
      // until the next change.
      if willSet && state.mutationsUnderWay > 0 { state.observers[id]!.excusedSince = state.step }
    }
  }

  /// Whether a handler may make `operation` now. With willSet timing the store of each write
  /// under way comes after its callbacks, and what a path's observers do with a link they
  /// were sent before its store is theirs to choose: a handler writes no link and no property
  /// being written while a write is under way (the outer store would overwrite it, and the
  /// observers that got the handler's value keep it), and observes nothing while a link is
  /// being written (the new observer registers along the old link and never hears of the new
  /// one). Rebinds from handlers are then those made from `observe`'s first callback.
  func allows(_ operation: NestedPathScript.Operation) -> Bool {
    guard willSet else { return true }
    return state.withLock { state in
      switch operation {
      case .mutate(let mutation):
        guard !state.underWay.isEmpty else { return true }
        if case .setTitle = mutation {
          return !state.underWay.contains { $0.property == mutation.property }
        }
        if case .setControllerTitle = mutation {
          return !state.underWay.contains { $0.property == mutation.property }
        }
        return false
      case .observe:
        return !state.underWay.contains {
          if case .setTitle = $0 { return false }
          return true
        }
      default: return true
      }
    }
  }

  func observeReturned(_ id: Int) {
    update { state in
      state.events.append("observe #\(id) returned")
      guard synchronous, let observer = state.observers[id], observer.callbacks == 0,
        !observer.cancelling
      else { return }
      Self.fail(
        &state,
        expected: "observe #\(id) calls its handler with the current title "
          + Self.show(state.world.leaf) + " before it returns (synchronous delivery)",
        observed: "it returned without a callback")
    }
  }

  func cancelStarted(_ id: Int) {
    update { state in
      state.events.append("cancel #\(id)")
      guard var observer = state.observers[id], !observer.cancelling else { return }
      observer.cancelling = true
      observer.inFlightAtCancel = observer.inCallback > 0 || state.mutationsUnderWay > 0
      state.observers[id] = observer
    }
  }

  func cancelReturned(_ id: Int) {
    update { state in
      state.events.append("cancel #\(id) returned")
      if cancelsOnLaterTurn, state.observers[id]?.cancelReturned == false {
        state.observers[id]?.leavesAtCancel = state.view.leaves
      }
      state.observers[id]?.cancelReturned = true
    }
  }

  func callback(_ id: Int, _ value: String?) {
    update { state in
      state.events.append("#\(id): \(Self.show(value))")
      guard var observer = state.observers[id] else { return }
      defer { state.observers[id] = observer }
      observer.callbacks += 1
      observer.last = .some(value)
      if let step = observer.excusedSince, step < state.step { observer.excusedSince = nil }
      if observer.cancelReturned {
        if !immediateCancellation && observer.inFlightAtCancel {
          observer.inFlightAtCancel = false
        } else if cancelsOnLaterTurn && observer.leavesAtCancel.contains(value) {
          // A change made before the cancel returned, delivered on the turn before the cancel's.
        } else {
          Self.fail(
            &state,
            expected: "nothing reaches #\(id) after its cancel returned"
              + (cancelsOnLaterTurn
                ? " but titles the path had before it returned (cancelsOnLaterTurn)" : "")
              + "; the contract: \(ContractSentence.nothingAfterCancel)",
            observed: "#\(id) got \(Self.show(value)) after its cancel returned")
          return
        }
      }
      let leaves = state.view.leaves
      if !leaves.contains(value) {
        let had = leaves.map(Self.show).sorted().joined(separator: ", ")
        Self.fail(
          &state,
          expected: "#\(id) gets only titles the path had "
            + (synchronous ? "in this step" : "since the backend's last turns")
            + " (\(had))",
          observed: "#\(id) got \(Self.show(value)), the title of a player detached before"
            + " then, or of no player")
        return
      }
      if synchronous {
        if observer.budget == 0 {
          Self.fail(
            &state,
            expected: "#\(id) gets one callback per change to a property on its path (and one"
              + " from observe)",
            observed: "#\(id) got \(Self.show(value)) once more than the changes on its path"
              + " allow: a duplicate, or a registration left on a detached object")
          return
        }
        observer.budget -= 1
      }
    }
  }

  /// Marks a handler as running (`entering`) or returned, so that a cancel made meanwhile
  /// knows a value was in flight.
  func handler(_ id: Int, entering: Bool) {
    update { state in state.observers[id]?.inCallback += entering ? 1 : -1 }
  }

  /// Checks that every live observer shows the path's current title.
  func checkAtRest(after step: String) {
    update { state in
      let leaf = state.world.leaf
      for (id, observer) in state.observers.sorted(by: { $0.key < $1.key })
      where !observer.cancelReturned && observer.excusedSince == nil {
        guard observer.last != .some(leaf) else { continue }
        Self.fail(
          &state,
          expected: "after \(step), every live observer's latest value is the path's title "
            + Self.show(leaf),
          observed: "#\(id)'s latest value is "
            + (observer.last.map { Self.show($0) } ?? "none (no callback at all)"))
        return
      }
    }
  }
}
