import Synchronization
import Testing

/// Actors and `Task` on their own, without Observatory's contract: the behaviours behind the
/// `actor-observable` backend's findings in the conformance matrix, as an app meets them.
@Suite("Actor-isolated observers on their own")
struct ActorObservableFindingsTests {
  /// An executor that runs its jobs only when asked, as a main run loop runs them only when its
  /// thread returns to it: the actor's serial executor and its callers' task executor.
  private final class HeldExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    private let jobs = Mutex<[UnownedJob]>([])

    func enqueue(_ job: consuming ExecutorJob) {
      let job = UnownedJob(job)
      jobs.withLock { $0.append(job) }
    }

    /// Runs the jobs enqueued so far and those they enqueue, until none is left.
    func runAll() {
      while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
        job.runSynchronously(on: asUnownedSerialExecutor())
      }
    }
  }

  /// The subject as an app writes it: the handlers in a dictionary, changed and called only by
  /// isolated calls, on the executor it is given.
  private actor Registry {
    private nonisolated let executor: HeldExecutor
    private var handlers: [Int: @Sendable (Int) -> Void] = [:]

    init(executor: HeldExecutor) { self.executor = executor }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
      executor.asUnownedSerialExecutor()
    }

    func set(_ value: Int) { for handler in handlers.values { handler(value) } }
    func register(_ id: Int, _ handler: @escaping @Sendable (Int) -> Void) {
      handlers[id] = handler
    }
    func remove(_ id: Int) { handlers.removeValue(forKey: id) }
  }

  private final class Canary: Sendable {}

  @Test(
    "A removal sent to an actor waits behind the writes sent before it: they reach the handler after the cancel returned (CAN-02, THR-09, DIFF-01)"
  )
  func removalWaitsBehindEarlierWrites() {
    let executor = HeldExecutor()
    let registry = Registry(executor: executor)
    let received = Mutex<[Int]>([])
    Task.immediate(executorPreference: executor) {
      await registry.register(1) { value in received.withLock { $0.append(value) } }
    }
    executor.runAll()
    Task.immediate(executorPreference: executor) { await registry.set(1) }
    // The observer's cancel, as an app writes it, returns here: nothing has been delivered.
    Task.immediate(executorPreference: executor) { await registry.remove(1) }
    #expect(received.withLock { $0 } == [])
    executor.runAll()
    #expect(received.withLock { $0 } == [1])
  }

  @Test(
    "An actor keeps a removed handler's captures until its executor runs the removal (MEM-01, MEM-05)"
  )
  func removedHandlerLivesUntilTheActorRuns() {
    let executor = HeldExecutor()
    let registry = Registry(executor: executor)
    weak var watched: Canary?
    do {
      let canary = Canary()
      watched = canary
      Task.immediate(executorPreference: executor) {
        await registry.register(1) { _ in withExtendedLifetime(canary) {} }
      }
    }
    executor.runAll()
    Task.immediate(executorPreference: executor) { await registry.remove(1) }
    #expect(watched != nil)
    executor.runAll()
    #expect(watched == nil)
  }

  @Test(
    "An isolated call not yet run keeps its actor, and the handler it carries, after the owner let go (MEM-04)"
  )
  func pendingCallKeepsTheActor() {
    let executor = HeldExecutor()
    weak var watchedRegistry: Registry?
    weak var watched: Canary?
    do {
      let registry = Registry(executor: executor)
      watchedRegistry = registry
      let canary = Canary()
      watched = canary
      Task.immediate(executorPreference: executor) {
        await registry.register(1) { _ in withExtendedLifetime(canary) {} }
      }
    }
    // The owner has let go of the actor; the registration it sent has not run.
    #expect(watchedRegistry != nil)
    #expect(watched != nil)
    executor.runAll()
    #expect(watchedRegistry == nil)
    #expect(watched == nil)
  }
}
