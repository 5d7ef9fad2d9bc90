import CClosureCalls
import DequeModule
import Dispatch
import ObservationCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// ``DenseObservers`` for any thread: the same dense closures, slot map and ordering
/// guarantees, with observing, cancelling and writing safe from every thread and callbacks to
/// one observer never overlapping.
///
/// - Delivery is an emitter loop. A write that finds nobody delivering makes its thread the
///   emitter: it calls the observers from the dense array with no lock held, then delivers
///   whatever was queued meanwhile before its `set` returns. A write that finds a delivery
///   under way (from another thread, or from inside a callback) queues its value and returns
///   at once; the emitter delivers it, in order, to the observers registered when it was
///   made. One thread delivers at a time, so callbacks never overlap, and no callback ever
///   runs under the lock.
/// - The walk reads the dense array without the lock. Nothing else writes the part a walk
///   reads while it runs: a subscription waits in a side list until the walk ends, and a
///   cancel from another thread of an observer the walk may still call books the cancel, then
///   waits for that walk to end, which replaces the closure by the no-op. So once `cancel()`
///   returns, on any thread, the observer is never called again. A cancel made from inside a
///   callback on the emitter, or of an observer the walk does not reach, never waits.
/// - With `replaysCurrentValue`, the replay is a delivery like any other: made on the
///   subscribing thread before `observe` returns when nobody is delivering (or from inside a
///   callback), handed to the emitter otherwise, before any later value.
///
/// The one wait (a cancel from another thread during a walk that may call the observer) is
/// what immediate cancellation costs on several threads: a callback that waits for the
/// cancelling thread deadlocks it, as it would with any backend that promises immediacy.
///
/// ```swift
/// let volume = SynchronizedDenseObservers(5)
/// let token = volume.observe { print($0) }
/// DispatchQueue.concurrentPerform(iterations: 4) { volume.value = $0 }  // prints each once
/// token.cancel()
/// ```
public final class SynchronizedDenseObservers<Value>: ObservableValue, ObserverCounting,
  @unchecked Sendable
{
  /// The closures. The emitter reads `0..<count` without the lock during a walk; every other
  /// access is under the lock (see ``_ClosureBuffer`` for its invariants).
  @usableFromInline internal let _handlers = _ClosureBuffer<Value>()
  /// Everything else, read and written only with `_mutex` held (``_locked(_:)``).
  @exclusivity(unchecked) @usableFromInline internal var _stateUnderLock: _State
  /// The lock. A pthread mutex rather than `Synchronization`'s `Mutex`: the thread sanitizer
  /// sees a pthread mutex's ordering, and on Linux cannot see `Mutex`'s futex (every access
  /// through it would be reported as a race).
  @usableFromInline internal let _mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// Whether `observe` replays the current value.
  public let replaysCurrentValue: Bool

  /// Creates a subject holding `initialValue`, with no observers; with `replaysCurrentValue`,
  /// each new observer is called with the current value before any later one.
  public init(_ initialValue: Value, replaysCurrentValue: Bool = false) {
    _stateUnderLock = _State(value: initialValue)
    _mutex = .allocate(capacity: 1)
    _mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(_mutex, nil)
    self.replaysCurrentValue = replaysCurrentValue
  }

  deinit {
    pthread_mutex_destroy(_mutex)
    _mutex.deinitialize(count: 1)
    _mutex.deallocate()
  }

  /// Runs `body` on the state with the lock held.
  @inlinable
  internal func _locked<Result>(_ body: (inout _State) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(_mutex)
    defer { pthread_mutex_unlock(_mutex) }
    return try body(&_stateUnderLock)
  }

  /// The current value. Setting it stores the value, then calls every observer with it, or
  /// queues it for the thread that is delivering.
  ///
  /// - Complexity: O(*n*) for *n* observers, for the thread that delivers; O(1) for a write
  ///   handed off.
  @inlinable
  public var value: Value {
    get { _locked { $0.value } }
    set { _write(newValue) }
  }

  /// The number of live observers.
  public var observerCount: Int {
    _locked { _handlers.count &+ $0.arrivals.count &- $0.tombstones }
  }

  /// Registers `handler` for later writes and returns its token; with
  /// ``replaysCurrentValue``, delivers the current value to it first.
  ///
  /// Never waits for another thread's callbacks.
  ///
  /// - Complexity: amortized O(1), plus the replay's deliveries.
  @inlinable
  public func observe(_ handler: @escaping (Value) -> Void) -> Token {
    let me = _currentThread()
    let (slot, generation, replay) = _locked {
      state -> (UInt32, UInt32, _Replay) in
      let entry = _handlers.count &+ state.arrivals.count
      let (slot, generation) = state.slots.allocate(entry: UInt32(truncatingIfNeeded: entry))
      if _handlers.isWalking {
        state.arrivals.append(handler)
      } else {
        _handlers.append(handler)
      }
      state.owners.append(slot)
      guard replaysCurrentValue else { return (slot, generation, .none) }
      if state.emitter == me { return (slot, generation, .now(state.value)) }
      if state.emitter != nil {
        state.pending.append(.replay(state.value, slot: slot, generation: generation))
        return (slot, generation, .none)
      }
      // Nobody delivers: this thread does, to the new entry alone (it is not in a walk).
      state.emitter = me
      _beginWalk(&state, over: entry..<entry &+ 1)
      return (slot, generation, .walk(state.value, entry))
    }
    let token = Token(slot: slot, generation: generation, owner: self)
    switch replay {
    case .none: break
    case .now(let value): handler(value)
    case .walk(let value, let entry):
      _ClosureBuffer<Value>.walk(_handlers.base + entry, upTo: 1, with: value)
      _endWalkAndDeliverQueued()
    }
    return token
  }

  @inlinable
  internal func _write(_ newValue: Value) {
    let me = _currentThread()
    let end = _locked { state -> Int? in
      state.value = newValue
      guard state.emitter == nil else {
        state.pending.append(.write(newValue, registered: _handlers.count &+ state.arrivals.count))
        return nil
      }
      state.emitter = me
      _beginWalk(&state, over: 0..<_handlers.count)
      return _handlers.count
    }
    guard let end else { return }
    _ClosureBuffer<Value>.walk(_handlers.base, upTo: end, with: newValue)
    _endWalkAndDeliverQueued()
  }

  /// Marks `entries` as being walked; under the lock, by the emitter.
  @inlinable
  internal func _beginWalk(_ state: inout _State, over entries: Range<Int>) {
    _handlers.isWalking = true
    state.walking = entries
  }

  /// Ends the walk that just returned, then delivers what was queued meanwhile, one walk at a
  /// time, and gives up the emitter's role when nothing is left. Called by the emitter,
  /// without the lock.
  @inlinable
  internal func _endWalkAndDeliverQueued() {
    while true {
      var finished = _Finished()
      let next = _locked { state -> _Next in
        _endWalk(&state, into: &finished)
        while let delivery = state.pending.popFirst() {
          switch delivery {
          case .write(let value, let registered):
            _beginWalk(&state, over: 0..<registered)
            return .walk(value, 0..<registered)
          case .replay(let value, let slot, let generation):
            // Cancelled before its turn: nothing to deliver.
            guard let entry = state.slots.entry(of: slot, generation: generation) else {
              continue
            }
            let index = Int(entry)
            _beginWalk(&state, over: index..<index &+ 1)
            return .walk(value, index..<index &+ 1)
          }
        }
        state.emitter = nil
        _compactIfWorthIt(&state)
        return .done
      }
      // Outside the lock: a woken canceller, or a released closure's token, may call in.
      for waiter in finished.waiters { waiter.signal() }
      for closure in finished.released { _ClosureBuffer<Value>.release(closure) }
      guard case .walk(let value, let entries) = next else { return }
      _ClosureBuffer<Value>.walk(
        _handlers.base + entries.lowerBound, upTo: entries.count, with: value)
    }
  }

  /// Ends a walk, under the lock: admits the entries registered during it, puts the no-op in
  /// place of the ones other threads cancelled, and hands over what to wake and release.
  @inlinable
  internal func _endWalk(_ state: inout _State, into finished: inout _Finished) {
    _handlers.isWalking = false
    state.walking = 0..<0
    if !state.arrivals.isEmpty {
      state.arrivals.withUnsafeBufferPointer { _handlers.append(copying: $0) }
      finished.arrivals = state.arrivals
      state.arrivals = []
    }
    for index in state.deferred { finished.released.append(_handlers.retire(at: index)) }
    state.deferred.removeAll(keepingCapacity: true)
    finished.released.append(contentsOf: state.retired)
    state.retired.removeAll(keepingCapacity: true)
    finished.waiters = state.waiters
    state.waiters.removeAll(keepingCapacity: true)
  }

  /// Cancels the observer in `slot` if `generation` is still its; returns once no walk can
  /// call it any more.
  ///
  /// - Complexity: O(1) amortized; waits for the walk under way on another thread if it may
  ///   still call the observer.
  @inlinable
  internal func _cancel(slot: UInt32, generation: UInt32) {
    let me = _currentThread()
    let outcome = _locked { state -> _Cancelled in
      guard let entry = state.slots.free(slot, generation: generation) else { return .nothing }
      let index = Int(entry)
      if index >= _handlers.count {
        // Registered during the walk under way: no walk reaches it yet.
        let released = state.arrivals.withUnsafeMutableBufferPointer {
          _ClosureBuffer<Value>.retire($0.baseAddress! + (index &- _handlers.count))
        }
        _markCancelled(&state, index)
        return .release(released)
      }
      if state.walking.contains(index) && state.emitter != me {
        // Another thread's walk may be calling it, or about to: it puts the no-op in place
        // when it ends, and wakes this thread.
        let waiter = DispatchSemaphore(value: 0)
        state.deferred.append(index)
        state.waiters.append(waiter)
        _markCancelled(&state, index)
        return .wait(waiter)
      }
      let closure = _handlers.retire(at: index)
      _markCancelled(&state, index)
      if state.walking.contains(index) {
        // This thread's own walk may be running it (a callback cancelling): kept until the
        // walk ends.
        state.retired.append(closure)
        return .nothing
      }
      return .release(closure)
    }
    // Outside the lock: releasing a closure can run a token's deinit, which cancels here.
    switch outcome {
    case .nothing: break
    case .release(let closure): _ClosureBuffer<Value>.release(closure)
    case .wait(let waiter): waiter.wait()
    }
  }

  /// Books entry `index` as a tombstone, and compacts if nobody delivers and that made it
  /// worth it.
  @inlinable
  internal func _markCancelled(_ state: inout _State, _ index: Int) {
    state.owners[index] = _SlotMap.vacant
    state.tombstones &+= 1
    if state.emitter == nil { _compactIfWorthIt(&state) }
  }

  @inlinable
  internal func _compactIfWorthIt(_ state: inout _State) {
    guard state.tombstones > 0, state.tombstones &* 2 >= _handlers.count,
      state.arrivals.isEmpty
    else { return }
    _handlers.compact(owners: &state.owners, slots: &state.slots)
    state.tombstones = 0
  }
}

extension SynchronizedDenseObservers {
  /// What the lock protects.
  @usableFromInline
  internal struct _State {
    @usableFromInline internal var value: Value
    /// Closures registered during a walk; entry `i` of them is entry `_handlers.count + i`.
    @usableFromInline internal var arrivals: ContiguousArray<(Value) -> Void> = []
    /// Closures cancelled by the emitter's own callbacks during a walk, released when it ends.
    @usableFromInline internal var retired: ContiguousArray<observatory_swift_closure> = []
    /// Entries other threads cancelled during a walk that may call them, replaced by the no-op
    /// when it ends.
    @usableFromInline internal var deferred: [Int] = []
    /// The threads waiting for the walk under way to end (one per entry of `deferred`).
    @usableFromInline internal var waiters: [DispatchSemaphore] = []
    /// For each entry, the slot that owns it (`_SlotMap.vacant` for a tombstone).
    @usableFromInline internal var owners: ContiguousArray<UInt32> = []
    @usableFromInline internal var slots = _SlotMap()
    @usableFromInline internal var tombstones = 0
    /// The thread delivering, or `nil`.
    @usableFromInline internal var emitter: UInt?
    /// The entries the walk under way reads (empty between walks).
    @usableFromInline internal var walking: Range<Int> = 0..<0
    /// Deliveries queued for the emitter, in order.
    @usableFromInline internal var pending: Deque<_Delivery> = []

    @inlinable
    internal init(value: Value) { self.value = value }
  }

  /// A delivery queued for the emitter.
  @usableFromInline
  internal enum _Delivery {
    /// A write, to the entries registered when it was made.
    case write(Value, registered: Int)
    /// A replay of the value current when the slot's observer subscribed, to it alone.
    case replay(Value, slot: UInt32, generation: UInt32)
  }

  /// What `observe` does after the lock, for a replay.
  @usableFromInline
  internal enum _Replay {
    case none
    /// From inside a callback on the emitter: call the handler at once, as ``DenseObservers``.
    case now(Value)
    /// This thread became the emitter: walk the new entry alone, then deliver what was queued.
    case walk(Value, Int)
  }

  /// What the emitter does after a walk ends.
  @usableFromInline
  internal enum _Next {
    case walk(Value, Range<Int>)
    case done
  }

  /// What `_cancel` does after the lock.
  @usableFromInline
  internal enum _Cancelled {
    case nothing
    case release(observatory_swift_closure)
    case wait(DispatchSemaphore)
  }

  /// What a walk's end hands over, to be done without the lock.
  @usableFromInline
  internal struct _Finished {
    @usableFromInline internal var waiters: [DispatchSemaphore] = []
    @usableFromInline internal var released: [observatory_swift_closure] = []
    /// The side list just admitted, released after the lock (the allocation holds copies).
    @usableFromInline internal var arrivals: ContiguousArray<(Value) -> Void> = []

    @inlinable
    internal init() {}
  }
}

/// The calling thread, as a number that no other live thread has.
@inlinable
internal func _currentThread() -> UInt {
  #if canImport(Darwin)
  UInt(bitPattern: pthread_self())
  #else
  UInt(pthread_self())
  #endif
}
