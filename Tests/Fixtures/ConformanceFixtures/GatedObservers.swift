import Dispatch
import Foundation
import ObservationCore
import Synchronization

/// A thread-safe observer list written the way code outside the project often is: correct, and
/// slow with many observers.
///
/// A `Mutex` guards its state, and a delivery gate, held by the thread delivering, serializes
/// delivery: a write from another thread waits for the gate, a write from a callback on the
/// delivering thread is queued and delivered after the current value. Observers are called
/// outside the mutex, which each delivery takes once to check that its observer is still
/// registered. Subscribing and cancelling cost time in proportion to the observers registered
/// (``costPerObserver`` each, slept under the mutex, as a scan of them would hold it), so that
/// SCALE-01 takes about 30 s while every other rule, which registers a few observers, runs at
/// full speed. The cost is slept rather than spent, so that the fixture does not take a core
/// from the tests running beside it.
///
/// Its twin (`deadlocksAt`) has a bug of the same kind as such code has: the observe that
/// registers its 1,000th observer takes the delivery gate and never gives it back, so the next
/// write waits for the gate for good. Only SCALE-01 registers that many.
final class GatedObservers: ObservableValue, ObserverCounting, @unchecked Sendable {
  /// Removes its observer when cancelled or released.
  final class Token: ObservationToken {
    private weak var owner: GatedObservers?
    private let id: Int

    init(owner: GatedObservers, id: Int) {
      self.owner = owner
      self.id = id
    }

    deinit { cancel() }

    func cancel() { owner?.remove(id) }
  }

  private struct State {
    var stored: Int
    /// In the order they subscribed, which is the order of their ids.
    var observers: [(id: Int, handler: (Int) -> Void)] = []
    /// The ids in ``observers``, for the check each delivery makes.
    var registered: Set<Int> = []
    var nextID = 0
    /// Writes waiting for delivery, each with the last id registered before it was made.
    var queue: [(value: Int, lastID: Int)] = []
    /// The thread holding the gate while it delivers.
    var deliverer: pthread_t?
    /// Time owed for the scans so far, slept once it reaches a millisecond.
    var owedNanoseconds = 0
  }

  /// What subscribing or cancelling costs per observer registered: 250 ns, which a scan of
  /// them takes on a slow machine.
  static let costPerObserverNanoseconds = 250

  private let state: Mutex<State>
  private let gate = DispatchSemaphore(value: 1)
  /// The number of observers at which `observe` keeps the gate (the twin's bug); `nil` for the
  /// correct list.
  private let deadlocksAt: Int?

  init(_ initialValue: Int, deadlocksAt: Int?) {
    state = Mutex(State(stored: initialValue))
    self.deadlocksAt = deadlocksAt
  }

  var value: Int {
    get { state.withLock { $0.stored } }
    set {
      let nested = state.withLock { state in
        guard let deliverer = state.deliverer, pthread_equal(deliverer, pthread_self()) != 0
        else { return false }
        state.stored = newValue
        state.queue.append((newValue, state.nextID))
        return true
      }
      if nested { return }
      gate.wait()
      state.withLock { state in
        state.deliverer = pthread_self()
        state.stored = newValue
        state.queue.append((newValue, state.nextID))
      }
      deliverQueue()
      gate.signal()
    }
  }

  /// Delivers the queued writes, in order, with the gate held, until none is left.
  private func deliverQueue() {
    while true {
      let next = state.withLock { state -> (Int, [(id: Int, handler: (Int) -> Void)])? in
        guard !state.queue.isEmpty else {
          state.deliverer = nil
          return nil
        }
        let write = state.queue.removeFirst()
        return (write.value, state.observers.filter { $0.id <= write.lastID })
      }
      guard let (value, observers) = next else { return }
      for observer in observers
      where state.withLock({ $0.registered.contains(observer.id) }) {
        observer.handler(value)
      }
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    let (id, count) = state.withLock { state in
      Self.scan(&state)
      state.nextID += 1
      state.observers.append((state.nextID, handler))
      state.registered.insert(state.nextID)
      return (state.nextID, state.observers.count)
    }
    if count == deadlocksAt {
      // The bug: the gate taken to grow the storage is never given back.
      gate.wait()
    }
    return Token(owner: self, id: id)
  }

  var observerCount: Int { state.withLock { $0.observers.count } }

  private func remove(_ id: Int) {
    state.withLock { state in
      Self.scan(&state)
      guard state.registered.remove(id) != nil,
        let index = state.observers.firstIndex(where: { $0.id == id })
      else { return }
      state.observers.remove(at: index)
    }
  }

  /// The cost of a scan of the observers, paid while the mutex is held.
  private static func scan(_ state: inout State) {
    state.owedNanoseconds += state.observers.count * costPerObserverNanoseconds
    guard state.owedNanoseconds >= 1_000_000 else { return }
    Thread.sleep(forTimeInterval: Double(state.owedNanoseconds) / 1e9)
    state.owedNanoseconds = 0
  }
}

/// The backend of ``GatedObservers``: `gated-slow`, or `gated-deadlock` for the twin that
/// deadlocks at 1,000 observers. Both declare every value, synchronously, serialized, from any
/// thread.
struct GatedBackend: ObservationBackend {
  /// Whether it makes the twin that deadlocks.
  let deadlocks: Bool

  var name: String { deadlocks ? "gated-deadlock" : "gated-slow" }

  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .deliversEveryValue, .synchronousDelivery, .threadSafe, .serializedDelivery,
        .cancelsOnTokenDeinit,
      ],
      maxReentrancyDepth: .unbounded)
  }

  func makeSubject(initialValue: Int) -> GatedObservers {
    GatedObservers(initialValue, deadlocksAt: deadlocks ? 1_000 : nil)
  }
}
