import ArgumentParser
import Foundation
import ObservationHarness
import ObservationReports
import ObservationWorkloads

/// The options that choose a sweep's cells, shared by `run` and `ab`: backends, workloads,
/// sizes, depths and allocators.
struct CellSelection: ParsableArguments {
  static let defaultSizes = SweepDefaults.sizes
  static let quickSizes = SweepDefaults.quickSizes
  /// The mission's `controller?.player?.title`; `--depths` sweeps others.
  static let defaultDepths = SweepDefaults.depths
  static let maximumDepth = SweepDefaults.maximumDepth

  /// The observer counts a cell may have.
  static let sizeRange = CellRequest.sizeRange

  /// `values` as the help lists them: `1, 16, 256`.
  static func list(_ values: [Int]) -> String { values.map(String.init).joined(separator: ", ") }

  @Option(
    name: .long,
    help: "Backends to measure (comma-separated; `observatory list` names them); default: all.",
    transform: BackendSelection.parse)
  var backend: CommaSeparated<String>?

  @Option(
    name: .long,
    help: "Workloads to measure (comma-separated; `observatory list` names them); default: all.",
    transform: CommaSeparated<Workload>.parser(entry: "workload"))
  var workload: CommaSeparated<Workload>?

  @Option(
    name: .long,
    help: """
      Observer counts (comma-separated positive integers); default: \
      \(list(defaultSizes)) (\(list(quickSizes)) with --quick).
      """,
    transform: CommaSeparated<Int>.parser(entry: "size", in: sizeRange))
  var sizes: CommaSeparated<Int>?

  @Option(
    name: .long,
    help: """
      Path depths for the nested workload (comma-separated, 1 to \(maximumDepth); rebind needs \
      2 or more; default \(list(defaultDepths))).
      """,
    transform: CommaSeparated<Int>.parser(entry: "depth", in: 1...maximumDepth))
  var depths: CommaSeparated<Int>?

  @Option(
    name: .long,
    help: """
      Threads for the contended workloads (comma-separated, 1 to \(maximumThreads)); default: \
      \(list(SweepDefaults.threads)), at n = \(list(SweepDefaults.contendedSizes)) unless --sizes \
      says otherwise.
      """,
    transform: CommaSeparated<Int>.parser(entry: "thread count", in: 1...maximumThreads))
  var threads: CommaSeparated<Int>?

  /// The most threads a contended cell may have.
  static let maximumThreads = 64

  @Option(
    name: .long,
    help: """
      Allocators to measure with; default: jemalloc when installed, else system (system for \
      --metric instructions).
      """)
  var allocator: AllocatorChoice?

  @Flag(
    name: .long,
    help: "A smoke sweep of about a minute: sizes \(list(quickSizes)), fewer repetitions.")
  var quick = false

  /// Whether the options measure less than the default sweep (or the quick one).
  var isNarrowed: Bool {
    backend != nil || workload != nil || sizes != nil || depths != nil || threads != nil
      || allocator != nil
  }

  /// Which sweep the options make: the default one, or a quick or narrowed one.
  var sweepKind: SweepKind { SweepKind(quick: quick, narrowed: isNarrowed) }

  /// The observer counts to measure: `--sizes`, or the default (or quick) sweep's.
  var plannedSizes: [Int] { sizes?.elements ?? (quick ? Self.quickSizes : Self.defaultSizes) }

  /// The path depths of the nested workload: `--depths`, or the default.
  var plannedDepths: [Int] { depths?.elements ?? Self.defaultDepths }

  /// The workloads to measure: `--workload`, or all of them (counting instructions, all but
  /// the contended ones, which cannot be counted: see ``checkCountable(_:)``).
  func plannedWorkloads(metric: Metric = .time) -> [Workload] {
    workload?.elements
      ?? Workload.allCases.filter { metric == .time || !$0.isContended }
  }

  /// The observer counts of the contended workloads: `--sizes`, or theirs by default.
  var plannedContendedSizes: [Int] {
    sizes?.elements ?? (quick ? SweepDefaults.quickContendedSizes : SweepDefaults.contendedSizes)
  }

  /// The threads of the contended workloads: `--threads`, or the default.
  var plannedThreads: [Int] { threads?.elements ?? SweepDefaults.threads }

  /// Refuses a contended workload named with `--metric instructions`.
  ///
  /// Callgrind runs a process's threads one at a time, so the threads of a contended cell never
  /// run at once under it: its count would be the work of the threads taken in turns, spin-waits
  /// included, and say nothing of what contention costs.
  func checkCountable(_ metric: Metric) throws {
    guard metric == .instructions, let named = workload?.elements.filter(\.isContended),
      !named.isEmpty
    else { return }
    throw ValidationError(
      "--metric instructions cannot count \(named.map(\.rawValue).joined(separator: ", ")):"
        + " callgrind runs one thread at a time, so the threads would never contend and the"
        + " count would say nothing of what contention costs; measure them with --metric time")
  }

  /// The allocators to measure with, given where jemalloc is (`nil`: not installed).
  ///
  /// - Parameter preferSystem: default to the system allocator even where jemalloc is
  ///   installed (instruction counts: jemalloc purges on a clock, so its counts vary).
  func allocators(jemalloc: String?, preferSystem: Bool = false) throws -> [Allocator] {
    let allocators =
      allocator?.allocators ?? (jemalloc == nil || preferSystem ? [.system] : [.jemalloc])
    if allocators.contains(.jemalloc) && jemalloc == nil {
      throw ValidationError(
        "--allocator \(allocator?.rawValue ?? "jemalloc") needs jemalloc, which was not found; install it"
          + " (Debian: apt-get install libjemalloc-dev) or set OBSERVATORY_JEMALLOC to libjemalloc.so.2"
      )
    }
    return allocators
  }

  /// The sweep of every cell selected, in sweep order (see ``SweepPlan``): the named backends
  /// on every workload selected, or all of them on the workloads each is measured on by
  /// default.
  ///
  /// - Throws: a `ValidationError` for a backend `tool` does not know.
  func plan(
    of tool: Tool, allocators: [Allocator], metric: Metric = .time, repetitions: Int,
    processes: Int? = nil, budget: Double? = nil, simulatesCaches: Bool = false
  ) throws -> SweepPlan {
    SweepPlan(
      rows: try tool.selectedRows(backend), everyWorkload: backend != nil,
      workloads: plannedWorkloads(metric: metric), sizes: plannedSizes, depths: plannedDepths,
      contendedSizes: plannedContendedSizes, threads: plannedThreads, allocators: allocators,
      kind: sweepKind, metric: metric, repetitions: repetitions, processes: processes,
      budget: budget, simulatesCaches: simulatesCaches)
  }
}
