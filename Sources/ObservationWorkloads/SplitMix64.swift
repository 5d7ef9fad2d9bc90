/// SplitMix64: a small seedable generator, the same on every platform.
///
/// It makes the seeded shuffle of the `random` cancellation order and the sweep's order of
/// cells. `ObservationConformance` keeps a copy of its own (`DifferentialScript.SeededGenerator`,
/// for DIFF-01's scripts): that module does not depend on this one, and a random generator has
/// no place in the contract both depend on.
public struct SplitMix64: RandomNumberGenerator {
  @usableFromInline var state: UInt64

  /// Creates a generator from `seed`.
  @inlinable
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  ///
  /// - Complexity: O(1).
  @inlinable
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
