import ObservationCore
import OpenCombine

/// The KP rules' model as Combine code writes it: `@Published` properties on
/// `ObservableObject`s.
enum CombineFixtureModel {
  final class Player: ObservableObject {
    @Published var title: String
    init(title: String) { self.title = title }
  }

  /// `@Published` cannot wrap a `weak var`, so Combine code holds a weak reference in a value.
  struct WeakPlayer {
    weak var player: Player?
  }

  final class Controller: ObservableObject {
    @Published var player: Player?
    @Published var weakPlayer = WeakPlayer()
  }

  final class Root: ObservableObject {
    @Published var controller: Controller?
  }

  final class Pair: ObservableObject {
    @Published var a = 0
    @Published var b = 0
  }
}

extension Publisher {
  /// `flatMap` for a transform returning an optional publisher of optionals: `nil` becomes a
  /// publisher of `nil` (the overload most Combine code adds for optional chains).
  fileprivate func flatMap<P: Publisher, T>(
    _ transform: @escaping (Output) -> P?
  )
    -> Publishers.FlatMap<AnyPublisher<T?, Failure>, Self>
  where P.Output == T?, P.Failure == Failure {
    flatMap {
      transform($0)?.eraseToAnyPublisher() ?? CurrentValueSubject(nil).eraseToAnyPublisher()
    }
  }

  /// `flatMap` for a transform returning an optional publisher of non-optionals.
  fileprivate func flatMap<P: Publisher, T>(
    _ transform: @escaping (Output) -> P?
  )
    -> Publishers.FlatMap<AnyPublisher<T?, Failure>, Self>
  where P.Output == T, P.Failure == Failure {
    flatMap {
      transform($0)?.map { Optional.some($0) }.eraseToAnyPublisher()
        ?? CurrentValueSubject(nil).eraseToAnyPublisher()
    }
  }
}

/// `root.controller?.player?.title` followed by a Combine chain; `weakPlayer` is a
/// `@Published` value holding the player weakly.
final class CombineNestedFixture: WeakIntermediateFixture {
  typealias Model = CombineFixtureModel
  let chain: CombineChain
  let root = Model.Root()

  init(chain: CombineChain) { self.chain = chain }

  func makeController() -> AnyObject { Model.Controller() }
  func makePlayer(title: String) -> AnyObject { Model.Player(title: title) }
  func setController(_ controller: AnyObject?) { root.controller = controller as? Model.Controller }
  func setPlayer(_ player: AnyObject?, of controller: AnyObject) {
    (controller as! Model.Controller).player = player as? Model.Player
  }
  func setTitle(_ title: String, of player: AnyObject) { (player as! Model.Player).title = title }

  func observeTitle(_ handler: @escaping (String?) -> Void) -> AnyObservationToken {
    switch chain {
    case .flatMap:
      return AnyObservationToken(
        root.$controller
          .flatMap { $0?.$player }
          .flatMap { $0?.$title }
          .sink(receiveValue: handler))
    case .switchToLatest:
      return AnyObservationToken(
        root.$controller
          .map { controller -> AnyPublisher<Model.Player?, Never> in
            controller?.$player.eraseToAnyPublisher() ?? Just(nil).eraseToAnyPublisher()
          }
          .switchToLatest()
          .map { player -> AnyPublisher<String?, Never> in
            player?.$title.map { Optional.some($0) }.eraseToAnyPublisher()
              ?? Just(nil).eraseToAnyPublisher()
          }
          .switchToLatest()
          .sink(receiveValue: handler))
    }
  }

  func setWeakPlayer(_ player: AnyObject?, of controller: AnyObject) {
    (controller as! Model.Controller).weakPlayer = Model.WeakPlayer(player: player as? Model.Player)
  }

  func observeWeakPlayerTitle(_ handler: @escaping (String?) -> Void) -> AnyObservationToken {
    switch chain {
    case .flatMap:
      return AnyObservationToken(
        root.$controller
          .flatMap { $0?.$weakPlayer }
          .flatMap { $0?.player?.$title }
          .sink(receiveValue: handler))
    case .switchToLatest:
      return AnyObservationToken(
        root.$controller
          .map { controller -> AnyPublisher<Model.Player?, Never> in
            controller?.$weakPlayer.map(\.player).eraseToAnyPublisher()
              ?? Just(nil).eraseToAnyPublisher()
          }
          .switchToLatest()
          .map { player -> AnyPublisher<String?, Never> in
            player?.$title.map { Optional.some($0) }.eraseToAnyPublisher()
              ?? Just(nil).eraseToAnyPublisher()
          }
          .switchToLatest()
          .sink(receiveValue: handler))
    }
  }

  /// Combine does not expose how many subscribers a `@Published` property has.
  func observerCount(on object: AnyObject?) -> Int? { nil }
}

/// Two `@Published` properties on one `ObservableObject`.
final class PublishedPropertyPair: PropertyPairFixture {
  let object = CombineFixtureModel.Pair()

  func setA(_ value: Int) { object.a = value }
  func setB(_ value: Int) { object.b = value }
  func observeA(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    AnyObservationToken(object.$a.sink(receiveValue: handler))
  }
  func observeB(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    AnyObservationToken(object.$b.sink(receiveValue: handler))
  }
  func observeObjectWillChange(_ handler: @escaping () -> Void) -> AnyObservationToken? {
    AnyObservationToken(object.objectWillChange.sink { _ in handler() })
  }
  /// `ObservableObject` has no derived properties that publish.
  func observeSum(_ handler: @escaping (Int) -> Void) -> AnyObservationToken? { nil }
  var layout: String { "two @Published properties on one ObservableObject" }
}

extension PublishedPropertyStrategy: PropertyPairBackend {
  /// An `ObservableObject` with two `@Published` properties.
  public func makePropertyPair() -> any PropertyPairFixture { PublishedPropertyPair() }
}
