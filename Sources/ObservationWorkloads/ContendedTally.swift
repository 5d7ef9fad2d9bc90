import Synchronization

/// What the observers of a contended workload report to: deliveries counted per writing
/// thread, each count on a cache line of its own, so that threads delivering their own writes
/// never share a line.
///
/// A value written by thread *k* carries *k* in its low bits (``value(write:thread:)``), and
/// its deliveries count on *k*'s line whichever thread runs the callback: a backend that hands
/// a contended write to the thread already delivering, or delivers on a loop of its own, is
/// counted as exactly as one that delivers on the writing thread. Counts are relaxed atomic
/// additions, which is what any observer that tallies from several threads pays.
public final class ContendedTally: Sendable {
  /// One thread's deliveries, padded to more than a cache line: two counters are never on one.
  @usableFromInline
  final class Line: Sendable {
    @usableFromInline let deliveries = Atomic<Int>(0)
    // 16 bytes of object header, 8 of counter and 56 of padding: the next line's counter is at
    // least 64 bytes further on.
    private let padding: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
  }

  @usableFromInline let lines: [Line]
  @usableFromInline let shift: Int
  @usableFromInline let mask: Int

  /// A tally for `threads` writing threads.
  ///
  /// - Complexity: O(*t*) for *t* threads.
  public init(threads: Int) {
    var shift = 0
    while 1 << shift < threads { shift += 1 }
    self.shift = shift
    mask = (1 << shift) - 1
    lines = (0..<(1 << shift)).map { _ in Line() }
  }

  /// The value thread `thread` writes as its `write`th write (from 1): distinct for every
  /// thread and write, never 0, and never the value before it.
  ///
  /// - Complexity: O(1).
  @inlinable
  @inline(__always)
  public func value(write: Int, thread: Int) -> Int { write << shift | thread }

  /// Counts one delivery of `value`.
  ///
  /// - Complexity: O(1).
  @inlinable
  @inline(__always)
  public func receive(_ value: Int) {
    lines[value & mask].deliveries.wrappingAdd(1, ordering: .relaxed)
  }

  /// The deliveries counted for thread `thread`'s writes.
  ///
  /// - Complexity: O(1).
  public func deliveries(ofThread thread: Int) -> Int {
    lines[thread].deliveries.load(ordering: .relaxed)
  }

  /// Every delivery counted.
  ///
  /// - Complexity: O(*t*).
  public var deliveries: Int {
    lines.reduce(0) { $0 + $1.deliveries.load(ordering: .relaxed) }
  }

  /// Forgets every count.
  ///
  /// - Complexity: O(*t*).
  public func reset() {
    for line in lines { line.deliveries.store(0, ordering: .relaxed) }
  }
}
