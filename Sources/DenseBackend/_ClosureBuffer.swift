import CClosureCalls

/// The dense array's storage: closures in one allocation of our own, which a C loop calls in
/// order without retaining or releasing a single context (``walk(upTo:with:)``).
///
/// A Swift loop over an array of closures retains each closure's context before the call and
/// releases it after, because the call could release the array's last reference to it: that
/// pair is most of what a Swift closure array costs per delivery. Here the owner promises what
/// makes the pair unnecessary, and the invariants below keep the promise.
///
/// Invariants (checked in debug builds):
/// - `base[0..<count]` hold initialized closures and `base[count..<capacity]` do not.
/// - While a walk is in progress (`isWalking`), the allocation neither moves nor shrinks:
///   `append`, `compact` and `removeAll` are not called; entries are only replaced in place.
/// - A closure replaced during a walk is not released until the walk ends (the owner keeps
///   it), so every context the walk can reach, including the one running, stays alive.
/// - A closure is two words, function and context, as `observatory_swift_closure` says.
///
/// A class rather than a noncopyable struct: this toolchain's optimizer crashes inlining a
/// noncopyable stored property's deinit into an inlinable setter.
@usableFromInline
internal final class _ClosureBuffer<Value> {
  @exclusivity(unchecked) @usableFromInline internal var base: UnsafeMutablePointer<(Value) -> Void>
  @exclusivity(unchecked) @usableFromInline internal var count = 0
  @exclusivity(unchecked) @usableFromInline internal var capacity: Int
  /// Set by the owner around a walk; the methods that would move the allocation check it.
  @exclusivity(unchecked) @usableFromInline internal var isWalking = false

  @inlinable
  internal init() {
    precondition(
      MemoryLayout<(Value) -> Void>.size == MemoryLayout<observatory_swift_closure>.size
        && MemoryLayout<(Value) -> Void>.alignment
          == MemoryLayout<observatory_swift_closure>.alignment,
      "a closure is not two words here: the C walk cannot read it")
    capacity = 4
    base = .allocate(capacity: capacity)
  }

  deinit {
    base.deinitialize(count: count)
    base.deallocate()
  }

  /// Appends `closure`, growing the allocation when full (never during a walk).
  ///
  /// - Complexity: amortized O(1).
  @inlinable
  internal func append(_ closure: @escaping (Value) -> Void) {
    reserve(1)
    (base + count).initialize(to: closure)
    count &+= 1
  }

  /// Appends copies of `closures`, memory to memory (see ``retire(at:)`` for why not one by
  /// one as values), growing the allocation as needed (never during a walk).
  ///
  /// - Complexity: amortized O(*k*) for *k* closures.
  @inlinable
  internal func append(copying closures: UnsafeBufferPointer<(Value) -> Void>) {
    guard let source = closures.baseAddress else { return }
    reserve(closures.count)
    (base + count).initialize(from: source, count: closures.count)
    count &+= closures.count
  }

  /// Makes room for `extra` more closures, doubling the allocation until they fit.
  @inlinable
  internal func reserve(_ extra: Int) {
    assert(!isWalking, "the allocation cannot grow during a walk")
    guard count &+ extra > capacity else { return }
    var grownCapacity = capacity &* 2
    while grownCapacity < count &+ extra { grownCapacity &*= 2 }
    let grown = UnsafeMutablePointer<(Value) -> Void>.allocate(capacity: grownCapacity)
    grown.moveInitialize(from: base, count: count)
    base.deallocate()
    base = grown
    capacity = grownCapacity
  }

  /// Puts the tombstone at `index` and hands over the closure that was there, as its two
  /// words, owned: the caller gives it to ``release(_:)`` when no walk can be running it.
  ///
  /// - Complexity: O(1).
  @inlinable
  internal func retire(at index: Int) -> observatory_swift_closure {
    assert(index >= 0 && index < count, "index \(index) out of 0..<\(count)")
    return Self.retire(base + index)
  }

  /// Puts the tombstone in `entry` (of the allocation or of a side list) and hands over the
  /// closure that was there, as its two words, owned.
  ///
  /// The tombstone is a C function that does nothing, with no context
  /// (`observatory_tombstone`): an entry becomes one by a plain two-word store, with no
  /// reference counting, and a dead entry needs no release. Closures move here as words,
  /// memory to memory: a closure passed to or returned from a method specialized for a
  /// concrete value type is reabstracted into a new context each time (two allocations per
  /// cancel, measured, before this), and a tombstone read as a Swift value could come back
  /// wrapped in such a context.
  ///
  /// - Complexity: O(1).
  @inlinable
  internal static func retire(
    _ entry: UnsafeMutablePointer<(Value) -> Void>
  )
    -> observatory_swift_closure
  {
    let raw = UnsafeMutableRawPointer(entry)
    let old = raw.load(as: observatory_swift_closure.self)
    // The old closure's ownership went to `old`; the tombstone has no context to retain.
    raw.storeBytes(of: observatory_tombstone(), as: observatory_swift_closure.self)
    return old
  }

  /// Releases a closure ``retire(at:)`` handed over.
  ///
  /// - Complexity: O(1), plus whatever releasing its context releases.
  @inlinable
  internal static func release(_ closure: observatory_swift_closure) {
    var closure = closure
    withUnsafeMutablePointer(to: &closure) {
      UnsafeMutableRawPointer($0).withMemoryRebound(to: ((Value) -> Void).self, capacity: 1) {
        _ = $0.deinitialize(count: 1)
      }
    }
  }

  /// Calls entries `0..<end` with `value`, in order, from C. The caller sets `isWalking`
  /// around it and keeps every replaced closure alive until it returns.
  ///
  /// - Complexity: O(*end*) calls.
  @inlinable
  internal static func walk(
    _ base: UnsafeMutablePointer<(Value) -> Void>, upTo end: Int, with value: Value
  ) {
    withUnsafePointer(to: value) { value in
      UnsafeRawPointer(base).withMemoryRebound(to: observatory_swift_closure.self, capacity: end) {
        observatory_call_each($0, end, value)
      }
    }
  }

  /// Keeps the entries whose `isLive(index)` holds, in order, dropping the others (tombstones),
  /// and calls `moved(from, to)` for each kept entry that moved. Never during a walk.
  ///
  /// - Complexity: O(*n*) for *n* entries.
  @inlinable
  internal func compact(
    isLive: (Int) -> Bool, moved: (_ from: Int, _ to: Int) -> Void
  ) {
    assert(!isWalking, "the allocation cannot change during a walk")
    var kept = 0
    for index in 0..<count {
      if isLive(index) {
        if kept != index {
          (base + kept).moveInitialize(from: base + index, count: 1)
          moved(index, kept)
        }
        kept &+= 1
      } else {
        // A dead entry is a tombstone (its closure was retired): no context, nothing to
        // release.
        assert(
          UnsafeRawPointer(base + index).load(as: observatory_swift_closure.self).context == nil,
          "a dead entry that is not a tombstone")
      }
    }
    count = kept
  }

  /// Compacts the entries (``compact(isLive:moved:)``) whose owner in `owners` is a slot, and
  /// keeps `owners` and `slots` in step: the one compaction both dense backends run.
  ///
  /// - Complexity: O(*n*) for *n* entries.
  @inlinable
  internal func compact(owners: inout ContiguousArray<UInt32>, slots: inout _SlotMap) {
    owners.withUnsafeMutableBufferPointer { owners in
      slots.slots.withUnsafeMutableBufferPointer { slots in
        compact(
          isLive: { owners[$0] != _SlotMap.vacant },
          moved: { from, to in
            owners[to] = owners[from]
            slots[Int(owners[to])].entry = UInt32(truncatingIfNeeded: to)
          })
      }
    }
    owners.removeLast(owners.count &- count)
  }
}
