/// What every row of a report says about where and how it was measured.
public struct RunEnvironment: Equatable, Sendable {
  /// The run's identifier, shared by every row it wrote.
  public var runID: String
  /// The short commit, `-dirty` with uncommitted changes, or `unknown`.
  public var commit: String
  /// When the run started, ISO 8601 in UTC.
  public var date: String
  /// The host name, reduced to letters, digits and `-`.
  public var host: String
  /// The processor's model name.
  public var cpu: String
  /// The processors this process may use; 0 when the report does not say (the column is
  /// optional, and left empty it reads as 0).
  public var cores: Int
  /// The operating system's name and version.
  public var os: String
  /// The Swift compiler's version (`6.3`).
  public var swift: String
  /// `release` or `debug`, followed by `-static-stdlib` when the executable carried the Swift
  /// runtime itself (`--static-swift-stdlib`).
  public var build: String
  /// Which sweep wrote the row; `nil` when the report does not say: one of schema 4 or older,
  /// or one written by code other than a sweep.
  public var sweep: SweepKind?

  /// The cores as a person reads them: `2 cores`, `1 core`, or `cores not recorded` where the
  /// report does not say (``cores`` is 0).
  ///
  /// - Complexity: O(1).
  public var coresText: String { Self.coresText(cores) }

  /// `count` processors as a person reads them, as ``coresText`` says them.
  ///
  /// - Complexity: O(1).
  public static func coresText(_ count: Int) -> String {
    switch count {
    case ...0: "cores not recorded"
    case 1: "1 core"
    default: "\(count) cores"
    }
  }

  /// Every field, as given.
  ///
  /// - Complexity: O(1).
  package init(
    runID: String, commit: String, date: String, host: String, cpu: String, cores: Int,
    os: String, swift: String, build: String, sweep: SweepKind? = nil
  ) {
    self.runID = runID
    self.commit = commit
    self.date = date
    self.host = host
    self.cpu = cpu
    self.cores = cores
    self.os = os
    self.swift = swift
    self.build = build
    self.sweep = sweep
  }
}
