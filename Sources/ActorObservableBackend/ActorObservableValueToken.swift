import Foundation
import ObservationCore
import RunLoopExecution
import Synchronization

/// Ends an observer of an ``ActorObservableValue``: sends the actor the call that removes its
/// handler, as an app's `deinit` or `onDisappear` does. Releasing the token ends it too.
///
/// The token holds the actor weakly, so that it keeps no handler alive once the value is gone.
public final class ActorObservableValueToken: ObservationToken {
  private let id: UUID
  private weak var subject: (any RemovingObservers)?
  private let executor: RunLoopExecutor
  private let cancelled = Atomic<Bool>(false)

  init(id: UUID, subject: any RemovingObservers, executor: RunLoopExecutor) {
    self.id = id
    self.subject = subject
    self.executor = executor
  }

  deinit { cancel() }

  /// Sends the actor the call that removes the handler; it takes effect when the actor's run
  /// loop runs it, after every call enqueued before. A second call does nothing.
  ///
  /// - Complexity: O(1).
  public func cancel() {
    guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
    guard let subject else { return }
    let id = id
    Task.immediate(executorPreference: executor) {
      await subject.remove(id)
    }
  }
}

/// An actor that removes observers by id: what a token needs of its subject, whatever its value
/// type.
protocol RemovingObservers: Actor {
  /// Removes the observer registered under `id`, if there is one.
  func remove(_ id: UUID)
}

extension IsolatedSubject: RemovingObservers {}
