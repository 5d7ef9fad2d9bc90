/// Where each live observer's entry sits in the dense array, by a slot number that never moves,
/// with a generation per slot so that a token of a freed slot cannot reach its next owner.
///
/// Invariants (checked in debug builds): a live slot's `entry` is the index of its closure in
/// the dense array, and that entry's owner is the slot; a free slot's `entry` links the free
/// list (`vacant` ends it); a slot's generation changes each time it is freed.
@usableFromInline
internal struct _SlotMap {
  /// No slot: the owner of a tombstone, the end of the free list.
  @usableFromInline internal static let vacant = UInt32.max

  @usableFromInline internal var entry: ContiguousArray<UInt32> = []
  @usableFromInline internal var generation: ContiguousArray<UInt32> = []
  @usableFromInline internal var live: ContiguousArray<Bool> = []
  @usableFromInline internal var freeHead = vacant

  @inlinable
  internal init() {}

  /// A slot for a new entry at `index`, and its generation.
  ///
  /// - Complexity: amortized O(1).
  @inlinable
  internal mutating func allocate(entry index: UInt32) -> (UInt32, UInt32) {
    if freeHead != Self.vacant {
      let slot = freeHead
      let position = Int(slot)
      freeHead = entry[position]
      entry[position] = index
      live[position] = true
      return (slot, generation[position])
    }
    let slot = UInt32(truncatingIfNeeded: entry.count)
    precondition(slot != Self.vacant, "too many observers")
    entry.append(index)
    generation.append(0)
    live.append(true)
    return (slot, 0)
  }

  /// Frees `slot` if it is live at `expected` generation; returns the entry index it held.
  ///
  /// - Complexity: O(1).
  @inlinable
  internal mutating func free(_ slot: UInt32, generation expected: UInt32) -> UInt32? {
    let position = Int(slot)
    guard position < entry.count, live[position], generation[position] == expected else {
      return nil
    }
    let index = entry[position]
    live[position] = false
    generation[position] &+= 1
    entry[position] = freeHead
    freeHead = slot
    return index
  }

  /// The entry index `slot` holds if it is live at `expected` generation.
  ///
  /// - Complexity: O(1).
  @inlinable
  internal func entry(of slot: UInt32, generation expected: UInt32) -> UInt32? {
    let position = Int(slot)
    guard position < entry.count, live[position], generation[position] == expected else {
      return nil
    }
    return entry[position]
  }

  /// Records that `slot`'s entry now sits at `index`.
  @inlinable
  internal mutating func move(_ slot: UInt32, to index: UInt32) {
    assert(live[Int(slot)], "moving a free slot")
    entry[Int(slot)] = index
  }
}
