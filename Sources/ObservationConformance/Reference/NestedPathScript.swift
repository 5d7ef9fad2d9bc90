import ObservationCore
import ObservationFixtures

/// The scripts DIFF-02 replays on a backend's nested-path fixture: a small world of a root,
/// ``controllers`` controllers and ``players`` players, observed as
/// `root.controller?.player?.title`, changed by top-level steps and by the observers' own
/// handlers.
///
/// Every title a script writes is new, so a value tells which write made it.
enum NestedPathScript {
  /// Controllers and players in the world.
  static let controllers = 3
  static let players = 4

  /// A change to the world.
  enum Mutation: CustomStringConvertible {
    /// `root.controller = controller c` (`nil`: no controller).
    case setController(Int?)
    /// `controller c.player = player p` (`nil`: no player).
    case setPlayer(Int?, of: Int)
    /// `player p.title = title`.
    case setTitle(String, of: Int)
    /// `controller c.title = title`: a property no path reads.
    case setControllerTitle(String, of: Int)

    /// A property of the world.
    enum Property: Hashable {
      case controller
      case player(of: Int)
      case title(of: Int)
      case controllerTitle(of: Int)
    }

    /// The property it writes.
    var property: Property {
      switch self {
      case .setController: return .controller
      case .setPlayer(_, let c): return .player(of: c)
      case .setTitle(_, let p): return .title(of: p)
      case .setControllerTitle(_, let c): return .controllerTitle(of: c)
      }
    }

    var description: String {
      switch self {
      case .setController(let c): return "root.controller = " + (c.map { "c\($0)" } ?? "nil")
      case .setPlayer(let p, let c): return "c\(c).player = " + (p.map { "p\($0)" } ?? "nil")
      case .setTitle(let title, let p): return "p\(p).title = \(title)"
      case .setControllerTitle(let title, let c): return "c\(c).title = \(title)"
      }
    }
  }

  /// One operation made from inside a nested-path handler.
  enum Operation: CustomStringConvertible {
    case mutate(Mutation)
    /// Observes the path anew, as observer `id`.
    case observe(Int)
    /// Cancels observer `id` if it exists by then (registered before or after the reacting one).
    case cancel(Int)
    case cancelSelf
    /// Drops the script's reference to observer `id`'s token without cancelling it.
    case release(Int)
    case releaseSelf

    var description: String {
      switch self {
      case .mutate(let mutation): return mutation.description
      case .observe(let id): return "observe #\(id)"
      case .cancel(let id): return "cancel #\(id)"
      case .cancelSelf: return "cancel itself"
      case .release(let id): return "release #\(id)"
      case .releaseSelf: return "release its own token"
      }
    }
  }

  /// What an observer does from its `trigger`-th callback (the first is the current leaf
  /// `observe` delivers): up to three operations in a row.
  struct Reaction: CustomStringConvertible {
    var trigger: Int
    var operations: [Operation]

    var description: String {
      "callback \(trigger): " + operations.map(\.description).joined(separator: ", then ")
    }
  }

  /// One top-level step.
  enum Step: CustomStringConvertible {
    case observe(Int, Reaction?)
    case cancel(Int)
    case release(Int)
    case mutate(Mutation)
    /// Gives an asynchronous backend its turns until every live observer shows the path's
    /// current title.
    case deliver

    var description: String {
      switch self {
      case .observe(let id, let reaction):
        return "observe #\(id)" + (reaction.map { " (\($0))" } ?? "")
      case .cancel(let id): return "cancel #\(id)"
      case .release(let id): return "release #\(id)"
      case .mutate(let mutation): return mutation.description
      case .deliver: return "deliver"
      }
    }
  }

  /// The script of `seed`: `length` steps; handlers mutate the world only with `nestedWrites`
  /// and observe only with `nestedObserves`, and `deliver` steps appear only with `delivers`.
  ///
  /// - Complexity: O(`length`).
  static func steps(
    seed: UInt64, length: Int, nestedWrites: Bool, nestedObserves: Bool, delivers: Bool
  ) -> [Step] {
    var generator = DifferentialScript.SeededGenerator(state: seed)
    return steps(
      using: &generator, length: length, nestedWrites: nestedWrites,
      nestedObserves: nestedObserves, delivers: delivers)
  }

  /// The script `generator` draws: a seeded generator's (DIFF-02), or a fuzzer's bytes
  /// (``DifferentialFuzzer``).
  ///
  /// - Complexity: O(`length`).
  static func steps(
    using generator: inout some RandomNumberGenerator, length: Int, nestedWrites: Bool,
    nestedObserves: Bool, delivers: Bool
  ) -> [Step] {
    var nextID = 0
    var titles = 0
    func draw(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
    func mutation() -> Mutation {
      switch draw(0...9) {
      case 0...1:
        return .setController(
          draw(0...controllers) == controllers ? nil : draw(0...controllers - 1))
      case 2...4:
        let player = draw(0...players)
        return .setPlayer(player == players ? nil : player, of: draw(0...controllers - 1))
      case 5:
        titles += 1
        return .setControllerTitle("c-title-\(titles)", of: draw(0...controllers - 1))
      default:
        titles += 1
        return .setTitle("title-\(titles)", of: draw(0...players - 1))
      }
    }
    func operation() -> Operation {
      switch draw(0...9) {
      case 0: return .cancel(draw(1...nextID + DifferentialScript.laterTargets))
      case 1: return .cancelSelf
      case 2: return .release(draw(1...nextID + DifferentialScript.laterTargets))
      case 3: return .releaseSelf
      case 4 where nestedObserves:
        nextID += 1
        return .observe(nextID)
      case 4: return .releaseSelf
      default:
        guard nestedWrites else {
          return draw(0...1) == 0 ? .cancelSelf : .cancel(draw(1...nextID + 2))
        }
        return .mutate(mutation())
      }
    }
    var steps: [Step] = []
    for _ in 0..<length {
      switch draw(0...9) {
      case 0...2:
        nextID += 1
        let id = nextID
        var reaction: Reaction?
        if draw(0...8) < 5 {
          let count = [1, 1, 1, 2, 2, 3][draw(0...5)]
          reaction = Reaction(
            trigger: draw(1...3), operations: (0..<count).map { _ in operation() })
        }
        steps.append(.observe(id, reaction))
      case 3: steps.append(.cancel(draw(1...max(1, nextID))))
      case 4: steps.append(.release(draw(1...max(1, nextID))))
      case 5 where delivers: steps.append(.deliver)
      default: steps.append(.mutate(mutation()))
      }
    }
    if delivers { steps.append(.deliver) }
    return steps
  }
}

extension NestedPathScript {
  /// Replays `steps` on `fixture`, telling `history` each event.
  ///
  /// A released token is dropped when releasing cancels; otherwise it is kept aside (the
  /// observer stays registered) and cancelled at the end with the others. `deliver` runs a
  /// `deliver` step; `afterStep` runs after each top-level step.
  static func run(
    _ steps: [Step], on fixture: any NestedPathFixture, cancelsOnRelease: Bool,
    history: NestedPathHistory, deliver: () -> Void, afterStep: (Int) -> Void
  ) {
    let root = fixture.makeNode(title: "root")
    let controllers = (0..<Self.controllers).map { fixture.makeNode(title: "controller \($0)") }
    let players = (0..<Self.players).map { fixture.makeNode(title: "title-p\($0)") }
    // The world DIFF-02 starts from, also ``NestedPathHistory/World/initial``: c0 on the root,
    // c0 and c1 with a player each.
    fixture.setNext(players[0], of: controllers[0])
    fixture.setNext(players[1], of: controllers[1])
    fixture.setNext(controllers[0], of: root)

    let tokens = Locked<[Int: AnyObservationToken]>([:])
    let released = Locked<[AnyObservationToken]>([])
    func mutate(_ mutation: Mutation) {
      history.mutationStarted(mutation)
      RuleProgress.step()
      switch mutation {
      case .setController(let c): fixture.setNext(c.map { controllers[$0] }, of: root)
      case .setPlayer(let p, let c): fixture.setNext(p.map { players[$0] }, of: controllers[c])
      case .setTitle(let title, let p): fixture.setTitle(title, of: players[p])
      case .setControllerTitle(let title, let c): fixture.setTitle(title, of: controllers[c])
      }
      RuleProgress.step()
      history.mutationReturned()
    }
    func cancel(_ id: Int) {
      guard let token = tokens.withLock({ $0[id] }) else { return }
      history.cancelStarted(id)
      RuleProgress.step()
      token.cancel()
      RuleProgress.step()
      history.cancelReturned(id)
    }
    func release(_ id: Int) {
      if cancelsOnRelease {
        guard tokens.withLock({ $0[id] != nil }) else { return }
        history.cancelStarted(id)
        // The token's last reference goes here, once the lock is given back.
        _ = tokens.withLock { $0.removeValue(forKey: id) }
        RuleProgress.step()
        history.cancelReturned(id)
      } else if let token = tokens.withLock({ $0.removeValue(forKey: id) }) {
        released.withLock { $0.append(token) }
      }
    }
    func observe(_ id: Int, _ reaction: Reaction?) {
      let calls = Locked(0)
      history.observeStarted(id)
      RuleProgress.step()
      let token = fixture.observeTitle(depth: PlayerTitlePath.depth, from: root) { value in
        RuleProgress.step()
        history.callback(id, value)
        history.handler(id, entering: true)
        defer { history.handler(id, entering: false) }
        let count = calls.withLock { calls in
          calls += 1
          return calls
        }
        guard let reaction, reaction.trigger == count else { return }
        for operation in reaction.operations where history.allows(operation) {
          switch operation {
          case .mutate(let mutation): mutate(mutation)
          case .observe(let newID): observe(newID, nil)
          case .cancel(let target): cancel(target)
          case .cancelSelf: cancel(id)
          case .release(let target): release(target)
          case .releaseSelf: release(id)
          }
        }
      }
      RuleProgress.step()
      tokens.withLock { $0[id] = token }
      history.observeReturned(id)
    }
    for (index, step) in steps.enumerated() {
      let afterTurns =
        index == 0 || { if case .deliver = steps[index - 1] { true } else { false } }()
      history.stepStarted(index, freshView: history.synchronous || afterTurns)
      switch step {
      case .observe(let id, let reaction): observe(id, reaction)
      case .cancel(let id): cancel(id)
      case .release(let id): release(id)
      case .mutate(let mutation): mutate(mutation)
      case .deliver: deliver()
      }
      afterStep(index)
    }
    // Observers capture the fixture through their reactions; cancelling releases them.
    for id in tokens.withLock({ $0.keys.sorted() }) { cancel(id) }
    for token in released.withLock({ $0 }) { token.cancel() }
    withExtendedLifetime((root, controllers, players)) {}
  }
}
