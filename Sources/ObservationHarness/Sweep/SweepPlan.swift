import ObservationCore
import ObservationReports
import ObservationWorkloads

/// What a sweep measures: its cells, in the order it measures them, and how much each may
/// take. `run` and `ab` make one from the cells they select, `baseline` the instruction
/// gate's (``instructionGate(of:)``), and ``Sweep/run(_:among:jemalloc:environment:progress:)``
/// measures it.
package struct SweepPlan: Sendable {
  /// The cells, in sweep order.
  package var cells: [Cell]
  /// What the cells measure.
  package var metric: Metric
  /// Measured repetitions per cell, before ``CellPolicy/repetitions(_:n:)`` reduces them at
  /// large sizes.
  package var repetitions: Int
  /// Processes per cell; `nil` for the metric's default.
  package var processes: Int?
  /// Seconds each cell may take; `nil` for the metric's default.
  package var budget: Double?
  /// Whether callgrind also simulates the caches (instructions only).
  package var simulatesCaches: Bool
  /// Which sweep this is, written into every row of its report (`sweep`).
  package var kind: SweepKind

  /// A plan of exactly `cells`, a sweep of `kind` (by default one that measures only some of
  /// the default sweep's cells).
  package init(
    cells: [Cell], kind: SweepKind = .partial, metric: Metric = .time, repetitions: Int,
    processes: Int? = nil, budget: Double? = nil, simulatesCaches: Bool = false
  ) {
    self.cells = cells
    self.kind = kind
    self.metric = metric
    self.repetitions = repetitions
    self.processes = processes
    self.budget = budget
    self.simulatesCaches = simulatesCaches
  }

  /// Every cell of `rows` and of the reference rows for `workloads`, `sizes` and (for
  /// `nested`) `depths`, under each of `allocators`: per allocator the reference rows first,
  /// then each row's workloads, patterns, depths and sizes. A contended workload is measured
  /// at `contendedSizes` (`sizes` when `nil`) with each of `threads`.
  ///
  /// A row is measured on the workloads it is measured on by default
  /// (``MeasuredBackend/isMeasuredByDefault(on:)``: the Combine chain variants only on
  /// `nested`) unless `everyWorkload`, as when the rows were named; never on a workload it
  /// does not measure at all (``MeasuredBackend/measures(_:)``). A rebinding pattern needs
  /// a depth of at least its ``WorkloadPattern/minimumDepth``.
  ///
  /// - Complexity: O(*a* · *r* · *w* · *d* · *s*) cells.
  package init(
    rows: MeasuredRows, everyWorkload: Bool, workloads: [Workload], sizes: [Int],
    depths: [Int], contendedSizes: [Int]? = nil, threads: [Int] = SweepDefaults.threads,
    allocators: [Allocator], kind: SweepKind = .partial, metric: Metric = .time, repetitions: Int,
    processes: Int? = nil, budget: Double? = nil, simulatesCaches: Bool = false
  ) {
    var cells: [Cell] = []
    for allocator in allocators {
      cells += Self.referenceCells(
        of: rows.references, allocator: allocator, workloads: workloads.map { ($0, $0.patterns) },
        sizes: sizes)
      for row in rows.backends {
        for workload in workloads
        where row.measures(workload) && (everyWorkload || row.isMeasuredByDefault(on: workload)) {
          for depth in workload.hasDepth ? depths : [0] {
            for pattern in workload.patterns
            where !workload.hasDepth || depth >= pattern.minimumDepth {
              let contended = workload.isContended
              for n in contended ? contendedSizes ?? sizes : sizes {
                for threadCount in contended ? threads : [1] {
                  cells.append(
                    Cell(
                      allocator: allocator, backend: row.name, workload: workload,
                      pattern: pattern, n: n, depth: depth, threads: threadCount))
                }
              }
            }
          }
        }
      }
    }
    self.init(
      cells: cells, kind: kind, metric: metric, repetitions: repetitions, processes: processes,
      budget: budget, simulatesCaches: simulatesCaches)
  }

  /// The three workloads a backend is chosen by: notify, subscribe and cancel in random order
  /// (the README's table and the instruction gate).
  package static let headlineWorkloads: [(Workload, WorkloadPattern)] = [
    (.notify, .single), (.subscribe, .single), (.cancel, .random),
  ]

  /// The instruction gate's observer counts: a small and a large one.
  package static let gateSizes = [16, 4096]

  /// The instruction gate: the reference rows but the asynchronous floor, and every row of `rows` written in the package
  /// that runs the tool (``BackendProvenance/original``) on the ``headlineWorkloads`` at the
  /// ``gateSizes``, counted once each with the system allocator: the counts then depend on the
  /// package, the toolchain and the C library only, not on whether jemalloc is installed.
  ///
  /// - Complexity: O(*r*) cells.
  package static func instructionGate(of rows: MeasuredRows) -> SweepPlan {
    // Not the asynchronous floor: the gate's reference rows show the toolchain's plain code
    // under the package's counts, while the floor counts the concurrency runtime's scheduling,
    // which the gated asynchronous backends already include (and which the baseline does not
    // have a row of).
    let references = referenceCells(
      of: rows.references.filter(\.deliversSynchronously), allocator: .system,
      workloads: headlineWorkloads.map { ($0, [$1]) }, sizes: gateSizes)
    let backends = gatedBackends(of: rows.backends).flatMap { backend in
      headlineWorkloads.filter { rows.row(named: backend)?.measures($0.0) ?? true }.flatMap {
        workload, pattern in
        gateSizes.map {
          Cell(allocator: .system, backend: backend, workload: workload, pattern: pattern, n: $0)
        }
      }
    }
    return SweepPlan(
      cells: references + backends, kind: .gate, metric: .instructions, repetitions: 1)
  }

  /// The cells of `references` (every reference row by default) for those of `workloads` each
  /// has a loop for, in each of the patterns given with it, at `sizes`: in the order of
  /// `references`, then of each row's loops, then patterns and sizes.
  private static func referenceCells(
    of references: [MeasuredBackend], allocator: Allocator,
    workloads: [(Workload, [WorkloadPattern])], sizes: [Int]
  ) -> [Cell] {
    references.flatMap { reference in
      (reference.onlyWorkloads ?? []).flatMap { workload in
        workloads.filter { $0.0 == workload }.flatMap(\.1).flatMap { pattern in
          sizes.map {
            Cell(
              allocator: allocator, backend: reference.name, workload: workload, pattern: pattern,
              n: $0)
          }
        }
      }
    }
  }

  /// The names of the rows of `rows` the instruction gate counts: those written in the package
  /// that runs the tool.
  package static func gatedBackends(of rows: [MeasuredBackend]) -> [String] {
    rows.filter { $0.description.provenance == .original }.map(\.name)
  }
}
