import ObservationCore

/// The jobs of one ``TurnQueueBackend`` value's subjects, run only when the suite gives the
/// backend its turn, as a hop to a run loop or an actor's executor does.
final class TurnQueue {
  private var jobs: [(owner: ObjectIdentifier?, run: () -> Void)] = []
  /// The subject whose job runs now, if the job running has one.
  private(set) var runningOwner: ObjectIdentifier?

  /// Schedules `job`, which is `owner`'s when given.
  func schedule(by owner: AnyObject? = nil, _ job: @escaping () -> Void) {
    jobs.append((owner.map(ObjectIdentifier.init), job))
  }

  /// Runs every scheduled job, and the jobs those schedule, in order.
  func runAll() {
    while !jobs.isEmpty {
      let job = jobs.removeFirst()
      let outer = runningOwner
      runningOwner = job.owner
      job.run()
      runningOwner = outer
    }
  }
}

/// An observer list whose token cancels an observer by the number it gave it.
protocol CancelsByID: AnyObject {
  func cancel(_ id: Int)
}

/// The token of the turn-queue lists: it holds its owner weakly and cancels on `cancel()` and
/// on release.
final class TurnQueueToken<Owner: CancelsByID>: ObservationToken {
  weak var owner: Owner?
  let id: Int
  init(owner: Owner, id: Int) {
    self.owner = owner
    self.id = id
  }
  deinit { cancel() }
  func cancel() { owner?.cancel(id) }
}

/// A backend whose subjects deliver on the turns of one ``TurnQueue``: the suite gives it its
/// turns by running every job scheduled.
protocol TurnQueueDriven: ObservationBackend {
  var queue: TurnQueue { get }
}

extension TurnQueueDriven {
  func awaitDelivery(until condition: () -> Bool, timeout: Duration) -> Bool {
    queue.runAll()
    return condition()
  }

  func awaitScheduledDeliveries(timeout: Duration) -> Bool {
    queue.runAll()
    return true
  }
}
