import Foundation
import LinkedListBackend
import ObservationCore

/// A ``LinkedListObservers`` confined to the thread that made it, as an object bound to a UI
/// thread is: a write from any other thread traps. It does not declare `threadSafe`, so the
/// THR rules only probe it, in a child process, where the trap is the probe's "not observed".
final class ThreadConfinedObservers: ObservableValue, ObserverCounting {
  private let base: LinkedListObservers<Int>
  private let owner = pthread_self()

  init(_ initialValue: Int) { base = LinkedListObservers(initialValue) }

  var value: Int {
    get { base.value }
    set {
      // fatalError, not precondition: an optimized build drops a precondition's message, and
      // the probe's details quote it.
      if pthread_equal(owner, pthread_self()) == 0 {
        fatalError("written off the thread that made it")
      }
      base.value = newValue
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> LinkedListObservers<Int>.Token {
    base.observe(handler)
  }

  var observerCount: Int { base.observerCount }
}

/// The backend of ``ThreadConfinedObservers``: the linked list's declaration, under its own name.
struct ThreadConfinedBackend: ObservationBackend {
  var name: String { "thread-confined" }
  var capabilities: BackendCapabilities { LinkedListStrategy().capabilities }
  func makeSubject(initialValue: Int) -> ThreadConfinedObservers {
    ThreadConfinedObservers(initialValue)
  }
}

/// Observers behind one lock that is never held while an observer runs: safe to use from any
/// thread, though its backend does not say so. The THR probes must observe that.
final class UndeclaredLockedObservers: ObservableValue {
  final class Token: ObservationToken {
    private weak var owner: UndeclaredLockedObservers?
    private let id: Int
    init(owner: UndeclaredLockedObservers, id: Int) {
      self.owner = owner
      self.id = id
    }
    deinit { cancel() }
    func cancel() { owner?.remove(id) }
  }

  private let lock = NSLock()
  private var stored: Int
  private var handlers: [Int: (Int) -> Void] = [:]
  private var nextID = 0

  init(_ initialValue: Int) { stored = initialValue }

  var value: Int {
    get { lock.withLock { stored } }
    set {
      let current = lock.withLock {
        stored = newValue
        return handlers.sorted { $0.key < $1.key }.map(\.value)
      }
      for handler in current { handler(newValue) }
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    let (id, current) = lock.withLock {
      nextID += 1
      handlers[nextID] = handler
      return (nextID, stored)
    }
    handler(current)
    return Token(owner: self, id: id)
  }

  private func remove(_ id: Int) { _ = lock.withLock { handlers.removeValue(forKey: id) } }
}

/// The backend of ``UndeclaredLockedObservers``: every value, synchronously, with a replay;
/// nested writes unsupported, and `threadSafe` not declared.
struct UndeclaredLockedBackend: ObservationBackend {
  var name: String { "locked-undeclared" }
  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [.replaysCurrentValue, .deliversEveryValue, .synchronousDelivery, .cancelsOnTokenDeinit],
      maxReentrancyDepth: .bounded(0))
  }
  func makeSubject(initialValue: Int) -> UndeclaredLockedObservers {
    UndeclaredLockedObservers(initialValue)
  }
}
