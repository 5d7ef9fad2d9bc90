import Dispatch
import Foundation
import LinkedListBackend
import ObservationCore

/// What a ``RunawayGuardedObservers`` does when a chain of reactions runs away.
enum RunawayReaction: String, CaseIterable {
  /// `fatalError`, as libraries that document a trap on runaway reentrant sends do: the
  /// process dies of SIGILL (SIGTRAP on arm64).
  case trap
  /// Waits for the outermost send to finish, which is waiting for this one: a deadlock.
  case deadlock
  /// Spins until the outermost send finishes, which is waiting for this one: a busy loop that
  /// never ends, as a hand-rolled spin lock taken again from a callback does.
  case spin
  /// Carries on, but slowly: half a second of work every 10,000 nested sends, so that REE-02's
  /// chain takes 5 s, and as long again through the erased handles. It is correct, only slow.
  case slow
}

/// A ``LinkedListObservers`` behind a guard against runaway feedback: a top-level send whose
/// callbacks make more than ``limit`` nested sends is taken for an endless loop, and the guard
/// traps, deadlocks or spins (``RunawayReaction``); the `slow` guard only takes its time.
///
/// Only rule REE-02 (a chain of 100,000 nested sends) trips the guard; every other rule nests a
/// few sends at most and sees exactly the linked list underneath.
final class RunawayGuardedObservers: ObservableValue, ObserverCounting {
  private let base: LinkedListObservers<Int>
  private let reaction: RunawayReaction
  /// Sends on the stack: above 0, a send is nested in a callback.
  private var depth = 0
  /// Nested sends made during the current top-level send.
  private var nestedSends = 0
  /// Signalled by nobody: a nested send past the limit waits on it for good.
  private let outermostSendFinished = DispatchSemaphore(value: 0)

  /// Nested sends one top-level send may cause.
  static let limit = 1_000

  init(_ initialValue: Int, reaction: RunawayReaction) {
    base = LinkedListObservers(initialValue)
    self.reaction = reaction
  }

  var value: Int {
    get { base.value }
    set {
      if depth == 0 {
        nestedSends = 0
      } else {
        nestedSends += 1
        if nestedSends > Self.limit { runAway() }
        if reaction == .slow && nestedSends % 10_000 == 0 { Thread.sleep(forTimeInterval: 0.5) }
      }
      depth += 1
      defer { depth -= 1 }
      base.value = newValue
    }
  }

  func observe(_ handler: @escaping (Int) -> Void) -> LinkedListObservers<Int>.Token {
    base.observe(handler)
  }

  var observerCount: Int { base.observerCount }

  private func runAway() {
    switch reaction {
    case .trap:
      fatalError("runaway feedback: more than \(Self.limit) nested sends in one send")
    case .deadlock:
      outermostSendFinished.wait()
    case .spin:
      while outermostSendFinished.wait(timeout: .now()) == .timedOut {}
    case .slow:
      break
    }
  }
}

/// The backend of ``RunawayGuardedObservers``: the linked list's name with the reaction, and
/// the linked list's declaration.
struct RunawayGuardedBackend: ObservationBackend {
  let reaction: RunawayReaction

  var name: String { "runaway-\(reaction.rawValue)" }

  var capabilities: BackendCapabilities { LinkedListStrategy().capabilities }

  func makeSubject(initialValue: Int) -> RunawayGuardedObservers {
    RunawayGuardedObservers(initialValue, reaction: reaction)
  }

  func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    LinkedListStrategy().makeSubject(of: valueType, initialValue: initialValue)
  }
}
