import ObservationCore

/// `root.controller?.player?.title` built from any backend's subjects and followed with
/// ``AnyObservable/flatMapLatest(_:)``: how the KP rules run on backends without native nested
/// observation.
final class ContractNestedFixture: NestedObservationFixture {
  final class Player {
    let title: any ObservableValue<String>
    init(title: any ObservableValue<String>) { self.title = title }
  }

  final class Controller {
    let player: any ObservableValue<Player?>
    init(player: any ObservableValue<Player?>) { self.player = player }
  }

  let backend: any ObservationBackend
  let root: any ObservableValue<Controller?>

  /// `nil` when the backend offers only `Int` subjects.
  init?(backend: any ObservationBackend) {
    guard let root = backend.makeSubject(of: Controller?.self, initialValue: nil) else {
      return nil
    }
    self.backend = backend
    self.root = root
  }

  func makeController() -> AnyObject {
    Controller(player: backend.makeSubject(of: Player?.self, initialValue: nil)!)
  }

  func makePlayer(title: String) -> AnyObject {
    Player(title: backend.makeSubject(of: String.self, initialValue: title)!)
  }

  func setController(_ controller: AnyObject?) { root.value = controller as? Controller }

  func setPlayer(_ player: AnyObject?, of controller: AnyObject) {
    (controller as! Controller).player.value = player as? Player
  }

  func setTitle(_ title: String, of player: AnyObject) { (player as! Player).title.value = title }

  func observeTitle(_ handler: @escaping (String?) -> Void) -> AnyObservationToken {
    AnyObservable(root)
      .flatMapLatest { $0.map { AnyObservable($0.player) } }
      .flatMapLatest { ($0 ?? nil).map { AnyObservable($0.title) } }
      .observe { handler($0 ?? nil) }
  }

  func observerCount(on object: AnyObject?) -> Int? {
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

/// Two properties as two subjects of the backend: how the AGG rules run on backends without
/// objects of several properties.
final class ContractPropertyPair: PropertyPairFixture {
  let a: TestSubject<Int>
  let b: TestSubject<Int>

  init(context: RuleContext) {
    a = context.subject(0)
    b = context.subject(0)
  }

  func setA(_ value: Int) { a.value = value }
  func setB(_ value: Int) { b.value = value }
  func observeA(_ handler: @escaping (Int) -> Void) -> AnyObservationToken { a.observe(handler) }
  func observeB(_ handler: @escaping (Int) -> Void) -> AnyObservationToken { b.observe(handler) }
  func observeObjectWillChange(_ handler: @escaping () -> Void) -> AnyObservationToken? { nil }
  func observeSum(_ handler: @escaping (Int) -> Void) -> AnyObservationToken? { nil }
  var layout: String { "two separate subjects (the backend has no objects of several properties)" }
}

extension RuleContext {
  /// The backend's own nested fixture, or one built from its subjects; `nil` if neither exists.
  func nestedFixture() -> (any NestedObservationFixture)? {
    if let native = backend as? any NestedObservationBackend { return native.makeNestedFixture() }
    return ContractNestedFixture(backend: backend)
  }

  /// Whether ``nestedFixture()`` is the backend's own.
  var hasNativeNestedObservation: Bool { backend is any NestedObservationBackend }

  /// The backend's own object of two properties, or two separate subjects.
  func propertyPair() -> any PropertyPairFixture {
    if let native = backend as? any PropertyPairBackend { return native.makePropertyPair() }
    return ContractPropertyPair(context: self)
  }
}
