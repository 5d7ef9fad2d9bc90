/// `root.controller?.player?.title` built from any backend's subjects and followed with
/// ``AnyObservable/flatMapLatest(_:)``: how the KP rules and the nested workload run on
/// backends without nested observation of their own.
///
/// The controller's `weakPlayer` is a subject whose value holds the player weakly: nothing
/// writes to it when the player deallocates.
public final class SubjectNestedFixture: WeakIntermediateFixture {
  final class Player {
    let title: any ObservableValue<String>
    init(title: any ObservableValue<String>) { self.title = title }
  }

  /// A weak reference as a value, for a subject that must not keep its player alive.
  struct WeakPlayer {
    weak var player: Player?
  }

  final class Controller {
    let player: any ObservableValue<Player?>
    let weakPlayer: any ObservableValue<WeakPlayer>
    init(player: any ObservableValue<Player?>, weakPlayer: any ObservableValue<WeakPlayer>) {
      self.player = player
      self.weakPlayer = weakPlayer
    }
  }

  let backend: any ObservationBackend
  let root: any ObservableValue<Controller?>

  /// A fixture of `backend`'s subjects, or `nil` when the backend offers only `Int` subjects.
  public init?(backend: any ObservationBackend) {
    guard let root = backend.makeSubject(of: Controller?.self, initialValue: nil) else {
      return nil
    }
    self.backend = backend
    self.root = root
  }

  /// See ``NestedObservationFixture``.
  public func makeController() -> AnyObject {
    Controller(
      player: backend.makeSubject(of: Player?.self, initialValue: nil)!,
      weakPlayer: backend.makeSubject(of: WeakPlayer.self, initialValue: WeakPlayer())!)
  }

  /// See ``NestedObservationFixture``.
  public func makePlayer(title: String) -> AnyObject {
    Player(title: backend.makeSubject(of: String.self, initialValue: title)!)
  }

  /// See ``NestedObservationFixture``.
  public func setController(_ controller: AnyObject?) { root.value = controller as? Controller }

  /// See ``NestedObservationFixture``.
  public func setPlayer(_ player: AnyObject?, of controller: AnyObject) {
    (controller as! Controller).player.value = player as? Player
  }

  /// See ``NestedObservationFixture``.
  public func setTitle(_ title: String, of player: AnyObject) {
    (player as! Player).title.value = title
  }

  /// See ``NestedObservationFixture``.
  public func observeTitle(_ handler: @escaping (String?) -> Void) -> AnyObservationToken {
    AnyObservable(root)
      .flatMapLatest { $0.map { AnyObservable($0.player) } }
      .flatMapLatest { ($0 ?? nil).map { AnyObservable($0.title) } }
      .observe { handler($0 ?? nil) }
  }

  /// See ``WeakIntermediateFixture``.
  public func setWeakPlayer(_ player: AnyObject?, of controller: AnyObject) {
    (controller as! Controller).weakPlayer.value = WeakPlayer(player: player as? Player)
  }

  /// See ``WeakIntermediateFixture``.
  public func observeWeakPlayerTitle(
    _ handler: @escaping (String?) -> Void
  )
    -> AnyObservationToken
  {
    AnyObservable(root)
      .flatMapLatest { $0.map { AnyObservable($0.weakPlayer) } }
      .flatMapLatest { (weak: WeakPlayer?) -> AnyObservable<String>? in
        guard let player = weak?.player else { return nil }
        return AnyObservable(player.title)
      }
      .observe { handler($0 ?? nil) }
  }

  /// See ``NestedObservationFixture``.
  public func observerCount(on object: AnyObject?) -> Int? {
    let subject: AnyObject
    switch object {
    case nil: subject = root
    case let controller as Controller: subject = controller.player
    case let player as Player: subject = player.title
    default: return nil
    }
    return (subject as? any ObserverCounting)?.observerCount
  }
}

extension ObservationBackend {
  /// The backend's own nested fixture if it has one, else one built from its subjects; `nil` if
  /// neither exists.
  public func makeAnyNestedFixture() -> (any NestedObservationFixture)? {
    if let native = self as? any NestedObservationBackend { return native.makeNestedFixture() }
    return SubjectNestedFixture(backend: self)
  }
}
