import ObservationCore

/// An observer list that removes an observer by the number it gave it.
protocol RemovesObservers: AnyObject {
  func remove(_ id: Int)
}

/// The token the test backends hand out: it holds its owner weakly and removes its observer on
/// `cancel()` and on release.
final class RemovingToken<Owner: RemovesObservers>: ObservationToken {
  let id: Int
  weak var owner: Owner?

  init(id: Int, owner: Owner) {
    self.id = id
    self.owner = owner
  }

  deinit { cancel() }

  func cancel() { owner?.remove(id) }
}
