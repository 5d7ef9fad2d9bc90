/// Which sweep wrote a report: the default one (the main job's), or one that measured less.
///
/// A report of schema 5 says so in its `sweep` column, written by the sweep that knew; a reader
/// that follows the main job (`history`) asks it. An older report does not say, and its
/// ``RunEnvironment/sweep`` is `nil`: only the name `run` gave it tells (`_quick`, `_partial`).
public enum SweepKind: String, CaseIterable, Sendable {
  /// The default sweep: every backend, workload, size, depth and allocator, with the default
  /// repetitions. The main job runs it.
  case `default`
  /// `--quick`: the quick sizes and fewer repetitions.
  case quick
  /// A selection narrowed by `--backend`, `--workload`, `--sizes`, `--depths`, `--threads` or
  /// `--allocator`.
  case partial
  /// `--quick` with a narrowed selection.
  case quickPartial = "quick-partial"
  /// The cells the instruction gate counts (`baseline`).
  case gate

  /// The kind of a `run` sweep: quick or not, narrowed or not.
  ///
  /// - Complexity: O(1).
  public init(quick: Bool, narrowed: Bool) {
    switch (quick, narrowed) {
    case (false, false): self = .default
    case (true, false): self = .quick
    case (false, true): self = .partial
    case (true, true): self = .quickPartial
    }
  }

  /// Whether the sweep ran with `--quick`.
  public var isQuick: Bool { self == .quick || self == .quickPartial }

  /// Whether the sweep measured only some of the default sweep's cells: a narrowed selection,
  /// or the gate's.
  public var isNarrowed: Bool { self == .partial || self == .quickPartial || self == .gate }
}
