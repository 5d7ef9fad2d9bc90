import Observation
import ObservationCore

/// The KP and AGG rules' model as `@Observable` classes.
enum ObservableFixtureModel {
  @Observable final class Player {
    var title: String
    init(title: String) { self.title = title }
  }

  @Observable final class Controller {
    var player: Player?
    weak var weakPlayer: Player?
  }

  @Observable final class Root {
    var controller: Controller?
  }

  @Observable final class Pair {
    var a = 0
    var b = 0
    /// A derived property: reading it reads `a` and `b`, so observing it tracks both.
    var sum: Int { a + b }
  }
}

/// `root.controller?.player?.title` observed with `Observations { root.controller?.player?.title }`.
final class ObservationsNestedFixture: WeakIntermediateFixture {
  typealias Model = ObservableFixtureModel
  let root = Model.Root()

  func makeController() -> AnyObject { Model.Controller() }
  func makePlayer(title: String) -> AnyObject { Model.Player(title: title) }
  func setController(_ controller: AnyObject?) { root.controller = controller as? Model.Controller }
  func setPlayer(_ player: AnyObject?, of controller: AnyObject) {
    (controller as! Model.Controller).player = player as? Model.Player
  }
  func setTitle(_ title: String, of player: AnyObject) { (player as! Model.Player).title = title }

  func observeTitle(_ handler: @escaping (String?) -> Void) -> AnyObservationToken {
    let root = root
    return AnyObservationToken(observeChanges({ root.controller?.player?.title }, handler: handler))
  }

  func setWeakPlayer(_ player: AnyObject?, of controller: AnyObject) {
    (controller as! Model.Controller).weakPlayer = player as? Model.Player
  }

  func observeWeakPlayerTitle(_ handler: @escaping (String?) -> Void) -> AnyObservationToken {
    let root = root
    return AnyObservationToken(
      observeChanges({ root.controller?.weakPlayer?.title }, handler: handler))
  }

  func observerCount(on object: AnyObject?) -> Int? { nil }
}

/// Two tracked properties and a derived one on one `@Observable` object.
final class ObservationsPropertyPair: PropertyPairFixture {
  let object = ObservableFixtureModel.Pair()

  func setA(_ value: Int) { object.a = value }
  func setB(_ value: Int) { object.b = value }
  func observeA(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    let object = object
    return AnyObservationToken(observeChanges({ object.a }, handler: handler))
  }
  func observeB(_ handler: @escaping (Int) -> Void) -> AnyObservationToken {
    let object = object
    return AnyObservationToken(observeChanges({ object.b }, handler: handler))
  }
  func observeObjectWillChange(_ handler: @escaping () -> Void) -> AnyObservationToken? { nil }
  func observeSum(_ handler: @escaping (Int) -> Void) -> AnyObservationToken? {
    let object = object
    return AnyObservationToken(observeChanges({ object.sum }, handler: handler))
  }
  var layout: String { "two tracked properties and a computed `sum` on one @Observable object" }
}

extension SwiftObservationsStrategy: NestedObservationBackend, PropertyPairBackend {
  /// A fixture observed with `Observations { root.controller?.player?.title }`.
  public func makeNestedFixture() -> any NestedObservationFixture { ObservationsNestedFixture() }

  /// An `@Observable` object with two properties and a computed property reading both.
  public func makePropertyPair() -> any PropertyPairFixture { ObservationsPropertyPair() }
}
