/// A behaviour a backend may declare, named with the conformance catalogue's vocabulary.
///
/// A declared capability turns the rules that depend on it from probes into requirements: the
/// backend must then pass them. An undeclared capability is still probed and reported.
public enum Capability: String, Sendable, Hashable, CaseIterable, Comparable {
  /// `observe` calls the new handler once with the current value before it returns (or, with
  /// ``replaysOnLaterTurn``, on a later turn).
  ///
  /// An observer that subscribes during the delivery of a value may be replayed the stored value
  /// or the value being delivered (they differ once a callback has queued a newer write); either
  /// way it gets that value once, and every write after the one it was replayed.
  case replaysCurrentValue
  /// Qualifies ``replaysCurrentValue``: the replay arrives on a later turn, not before `observe`
  /// returns, as the first value the new observer receives: the value current when `observe`
  /// began, or a later one (as Swift's `Observations` yields its first element when its task
  /// next runs). The subject's ``ObservableValue/replaysLater`` says the same to the
  /// combinators. A later value carries the writes made since `observe`; with
  /// ``deliversEveryValue`` each write made after `observe` returned still reaches the new
  /// observer, after its replay.
  case replaysOnLaterTurn
  /// Every `set` reaches every live observer: nothing is coalesced.
  case deliversEveryValue
  /// Every callback of a top-level `set` has run when `set` returns.
  ///
  /// With ``threadSafe``, on every thread: a `set` made while another thread is delivering
  /// returns only after its own value's callbacks have run (THR-01 checks it), not when the
  /// value has merely been queued for the delivering thread, unless the backend also declares
  /// ``handsOffContendedWrites``.
  case synchronousDelivery
  /// An emitter loop: synchronous when uncontended, delivered by the delivering thread under
  /// contention.
  ///
  /// Declared with ``synchronousDelivery`` and ``threadSafe``. A `set` that finds another
  /// thread delivering queues its value and returns at once, without waiting for any callback;
  /// the delivering thread delivers the queued value before its own `set` returns. So once
  /// every concurrent `set` has returned, every value has been delivered (THR-01), and a
  /// contended `set` never waits on another thread's callbacks (THR-08). RxJava's serialized
  /// observer and many Swift subjects work this way. On one thread nothing changes: delivery
  /// is synchronous.
  case handsOffContendedWrites
  /// Observers are called in registration order.
  case preservesObserverOrder
  /// A `set` made from inside a callback never makes an observer see values out of order.
  case preservesValueOrderUnderReentrancy
  /// Once `cancel()` returns, the observer is never called again, not even with a value that
  /// was already being delivered.
  case immediateCancellation
  /// A cancel takes effect on the backend's later turn, behind the writes made before it: every
  /// value whose `set` started before `cancel()` (or the token's release) returned may still
  /// reach the observer after it returns, each once and in write order; no value set after it.
  ///
  /// Declared by an asynchronous backend without ``immediateCancellation`` whose cancel takes
  /// effect in order with its deliveries (an actor's isolated method, a serial queue, a task
  /// that drains a buffer). The handler must still go when nothing waits for it (MEM-01).
  /// Without it, an observer gets nothing after its cancel returned but the value whose
  /// delivery had begun: the one in flight when a callback cancelled it, or, with writers on
  /// other threads, one per writer. DIFF-01, THR-04, THR-09 and CAN-02 hold a backend to
  /// whichever it declares; on a nested path (`nestedKeyPaths`), DIFF-02 lets a cancelled
  /// observer get a title the path had before the cancel returned, and KP-08 looks for the
  /// handler's release once the backend has had its turns.
  case cancelsOnLaterTurn
  /// Releasing the last reference to the token cancels the observation.
  case cancelsOnTokenDeinit
  /// A token keeps the observed subject alive.
  case tokenRetainsSubject
  /// The stream can be finished (see ``CompletableObservableValue``).
  ///
  /// `complete()` calls each live observer's completion handler once and releases it
  /// (completion implies cancellation); nothing is delivered once completion is requested, not
  /// even the rest of a broadcast a callback completed in. An observer that subscribes after
  /// completion was requested, from a callback or a completion handler too, gets the completion
  /// before `observe` returns, and no value. Requested from a callback, the completion handlers
  /// may run inside `complete()` or when the outermost delivery returns, in any order: an observer
  /// cancelled before its handler ran gets none.
  case supportsCompletion
  /// Writing a value equal to the current one notifies nobody.
  case suppressesDuplicates
  /// The owning object offers a "will change" signal aggregating all its properties.
  ///
  /// The signal fires once per write of any property, to every observer of it registered and
  /// not cancelled, as the write's `set` begins: before the store (the property still reads its
  /// old value inside it) and before the property's observers. A write made from a callback is
  /// announced in its own `set` too, even where its delivery waits for the outermost one. After
  /// the cancel of an observer of the signal returns, it hears nothing more.
  case aggregatedChangeSignal
  /// The backend can observe nested key paths such as `\.a?.b?.c`.
  case nestedKeyPaths
  /// An intermediate of an observed path that is held weakly and deallocates is delivered as
  /// `nil`, as if it had been set to `nil`. Rule KP-07 holds a backend to its declaration both
  /// ways: with it, the `nil` must arrive; without it, the observation must stay silent.
  case reportsDeallocatedIntermediates
  /// Observing, cancelling and setting from several threads at once is safe.
  case threadSafe
  /// Callbacks to one observer never overlap in time, even with concurrent writers.
  case serializedDelivery
  /// A registration fires at most once and must be re-armed to observe again.
  case oneShot
  /// Misuse traps: a write nested deeper than ``ReentrancyBound`` allows (any nested write
  /// when the bound is 0) stops the process, as a documented precondition does (ERR-02,
  /// checked in a child process).
  case trapsOnMisuse
  /// Misuse is reported: a write nested deeper than ``ReentrancyBound`` allows produces a
  /// diagnostic the subject exposes through ``MisuseReporting`` (ERR-03).
  case reportsMisuse

  /// Orders capabilities by name, for stable reports.
  public static func < (lhs: Capability, rhs: Capability) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}

/// When, relative to the store, a backend calls its observers.
public enum DeliveryTiming: String, Sendable, Hashable, CaseIterable {
  /// After the new value is stored: reading the subject in the callback gives the new value.
  case didSet
  /// Before the new value is stored: reading the subject in the callback gives the old value.
  case willSet
  /// Changes made in one synchronous block are delivered together, later.
  case transactional
  /// After the store, later: each write is delivered on a later turn (a hop to a queue or a
  /// run loop per write, as Combine's `receive(on:)` does), in write order, with its own
  /// value; reading the subject in the callback may already give a newer value. A write goes
  /// to the observers registered when it was made (and still registered when its turn comes):
  /// as with `receive(on:)`, an observer whose `observe` began after a write never receives
  /// that write, even while it is still pending; only a declared replay
  /// (``Capability/replaysCurrentValue``) gives it the value current when it subscribed.
  case asynchronousOrdered
}

/// How deeply a backend lets reentrant writes nest callbacks on the stack.
public enum ReentrancyBound: Sendable, Hashable, CustomStringConvertible {
  /// Nested writes recurse into delivery; a chain deeper than this many levels is not supported.
  case bounded(Int)
  /// Nested writes are queued and delivered by the outermost call (trampolining), so a chain of
  /// nested writes never grows the stack.
  case unbounded

  /// `"unbounded"` or the bound as a number.
  public var description: String {
    switch self {
    case .bounded(let depth): return String(depth)
    case .unbounded: return "unbounded"
    }
  }
}
