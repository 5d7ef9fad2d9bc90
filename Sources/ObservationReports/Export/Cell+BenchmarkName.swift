import ObservationWorkloads

extension Cell {
  /// The cell's name for a continuous-benchmarking service (Bencher, github-action-benchmark):
  /// `backend/workload/pattern/n=N`, then `/depth=D` for a nested path, `/threads=T` for a
  /// contended workload, and `/allocator=A` last.
  ///
  /// `linked-list/notify/-/n=1024/allocator=jemalloc`,
  /// `key-path/nested/leaf/n=1024/depth=3/allocator=system`,
  /// `dense-synchronized/contended-notify/-/n=16/threads=4/allocator=jemalloc`.
  ///
  /// The name holds every field of ``key``, so two cells of a report never share one: the
  /// depth is left out only when it is 0 and the threads only when there is one, and each is
  /// labelled, so that no other field can be mistaken for it. The backend comes first, so that
  /// a service's list of benchmarks, sorted by name, groups each backend's cells together; a
  /// reference row's name starts with `reference-`, as its backend's does. The name stays the
  /// same from one report to the next, which is what lets a service draw a cell's history.
  ///
  /// - Complexity: O(1).
  public var benchmarkName: String {
    var parts = [backend, workload.rawValue, pattern.rawValue, "n=\(n)"]
    if depth != 0 { parts.append("depth=\(depth)") }
    if threads != 1 { parts.append("threads=\(threads)") }
    parts.append("allocator=\(allocator.rawValue)")
    return parts.joined(separator: "/")
  }
}
