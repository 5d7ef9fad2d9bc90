import ObservationWorkloads

/// One cell of a sweep: a row (a backend or a reference loop) running one workload with `n`
/// observers, under one allocator.
public struct Cell: Hashable, Sendable {
  /// The allocator the cell's process runs with.
  public var allocator: Allocator
  /// The row's name: a backend's, or a reference loop's (the names `ReferenceRow` lists).
  public var backend: String
  /// What the cell measures.
  public var workload: Workload
  /// How the workload varies (`single`, written `-`, for a workload without patterns).
  public var pattern: WorkloadPattern
  /// The number of observers.
  public var n: Int
  /// The depth of the observed path for `nested`; 0 for the single-property workloads.
  public var depth: Int
  /// The threads using the subject at once for a contended workload
  /// (`Workload.isContended`); 1 for the others.
  public var threads: Int

  /// A cell of `backend` running `workload` with `n` observers under `allocator`.
  public init(
    allocator: Allocator, backend: String, workload: Workload,
    pattern: WorkloadPattern = .single, n: Int, depth: Int = 0, threads: Int = 1
  ) {
    self.allocator = allocator
    self.backend = backend
    self.workload = workload
    self.pattern = pattern
    self.n = n
    self.depth = depth
    self.threads = threads
  }

  /// The cell's name in reports and comparisons: allocator, backend, workload, pattern, n
  /// and depth, joined by `/`, then the threads when there are several (so that a one-thread
  /// cell keeps the name it had before reports had threads).
  public var key: String {
    var parts = [
      allocator.rawValue, backend, workload.rawValue, pattern.rawValue, String(n), String(depth),
    ]
    if threads != 1 { parts.append(String(threads)) }
    return parts.joined(separator: "/")
  }

  /// The series this cell belongs to: every size of one (allocator, backend, workload,
  /// pattern, depth, threads).
  package var series: Series {
    Series(
      allocator: allocator, backend: backend, workload: workload, pattern: pattern, depth: depth,
      threads: threads)
  }

  /// Every size of one (allocator, backend, workload, pattern, depth, threads): the cells whose
  /// times project the next size's, and which a capped size stops.
  package struct Series: Hashable, Sendable {
    /// The allocator.
    package var allocator: Allocator
    /// The row's name.
    package var backend: String
    /// The workload.
    package var workload: Workload
    /// The pattern.
    package var pattern: WorkloadPattern
    /// The path depth (0 for the single-property workloads).
    package var depth: Int
    /// The threads (1 for the workloads that are not contended).
    package var threads: Int
  }
}

/// The allocator a cell's process runs with.
public enum Allocator: String, CaseIterable, Codable, Sendable {
  /// The C library's `malloc`.
  case system
  /// jemalloc, preloaded, which also counts allocations and bytes.
  case jemalloc
}
