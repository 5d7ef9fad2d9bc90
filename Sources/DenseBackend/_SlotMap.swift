/// Where each live observer's entry sits in the dense array, by a slot number that never moves,
/// with a generation per slot so that a token of a freed slot cannot reach its next owner.
///
/// One array of (entry, generation) pairs, so that a cancel touches one cache line of it. A
/// slot is live when its generation is odd: allocating a free slot and freeing a live one each
/// add 1, so a token's generation (odd) matches only while its slot is live, and never again.
///
/// Invariants (checked in debug builds): a live slot's `entry` is the index of its closure in
/// the dense array, and that entry's owner is the slot; a free slot's `entry` links the free
/// list (`vacant` ends it).
@usableFromInline
internal struct _SlotMap {
  /// No slot: the owner of a tombstone, the end of the free list.
  @usableFromInline internal static let vacant = UInt32.max

  @usableFromInline
  internal struct _Slot {
    /// The entry index while live; the next free slot while free.
    @usableFromInline internal var entry: UInt32
    /// Odd while live.
    @usableFromInline internal var generation: UInt32

    @inlinable
    internal init(entry: UInt32, generation: UInt32) {
      self.entry = entry
      self.generation = generation
    }
  }

  @usableFromInline internal var slots: ContiguousArray<_Slot> = []
  @usableFromInline internal var freeHead = vacant

  @inlinable
  internal init() {}

  /// A slot for a new entry at `index`, and its generation (odd).
  ///
  /// - Complexity: amortized O(1).
  @inlinable
  internal mutating func allocate(entry index: UInt32) -> (UInt32, UInt32) {
    if freeHead != Self.vacant {
      let slot = freeHead
      return slots.withUnsafeMutableBufferPointer { slots in
        let position = Int(slot)
        freeHead = slots[position].entry
        slots[position].entry = index
        slots[position].generation &+= 1
        return (slot, slots[position].generation)
      }
    }
    let slot = UInt32(truncatingIfNeeded: slots.count)
    precondition(slot != Self.vacant, "too many observers")
    slots.append(_Slot(entry: index, generation: 1))
    return (slot, 1)
  }

  /// Frees `slot` if it is live at `expected` generation; returns the entry index it held.
  ///
  /// - Complexity: O(1).
  @inlinable
  internal mutating func free(_ slot: UInt32, generation expected: UInt32) -> UInt32? {
    let position = Int(slot)
    guard position < slots.count else { return nil }
    return slots.withUnsafeMutableBufferPointer { slots in
      guard slots[position].generation == expected, expected & 1 == 1 else { return nil }
      let index = slots[position].entry
      slots[position].generation &+= 1
      slots[position].entry = freeHead
      freeHead = slot
      return index
    }
  }

  /// The entry index `slot` holds if it is live at `expected` generation.
  ///
  /// - Complexity: O(1).
  @inlinable
  internal func entry(of slot: UInt32, generation expected: UInt32) -> UInt32? {
    let position = Int(slot)
    guard position < slots.count, slots[position].generation == expected, expected & 1 == 1
    else { return nil }
    return slots[position].entry
  }
}
