import Benchmark
import ObservationBackends
import ObservationCore
import ObservationWorkloads

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The harness's workloads for every backend in the catalog, as ordo-one/benchmark suites.
///
/// Each run calls the same driver as an `observatory` cell (set-up, the timed operations, the
/// self-check), and the framework measures exactly the driver's timed region: the drivers call
/// the probe's region hooks, which start and stop the framework's measurement. So the malloc
/// count of `notify_linked-list_1024` is the allocations of its writes alone, not of setting up
/// the observers. Names are `workload_backend_n`, with no tags, so that threshold files are named
/// after the benchmark alone.
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .instructions] + arcMetrics,
    warmupIterations: 1,
    maxDuration: .milliseconds(300),
    maxIterations: 20)
  var registrar = SuiteRegistrar()
  BackendCatalog.forEach(&registrar)
}

/// Retain and release counts, when `OBSERVATORY_ARC_COUNTS=1` asks for them.
///
/// Off by default: counting them installs the Swift runtime's retain/release hooks, which with
/// Swift 6.3 on Linux crash the benchmark process while the framework draws its progress bar
/// (ordo-one/benchmark issue 349). With them on, run with `--no-progress`.
let arcMetrics: [BenchmarkMetric] =
  getenv("OBSERVATORY_ARC_COUNTS").map { String(cString: $0) == "1" } == true
  ? [.retainCount, .releaseCount] : []

/// Registers the suites for one backend, as its concrete type: every workload in each of its
/// ``Workload/benchmarkedPatterns``, at every size.
struct SuiteRegistrar: BackendVisitor {
  static let sizes = [16, 1024, 65536]

  /// The seed of the `random` cancellation order.
  static let seed: UInt64 = 0x5EED

  mutating func visit<Backend: ObservationBackend & Sendable>(
    _ backend: Backend, _ description: BackendDescription
  ) {
    for n in Self.sizes {
      for workload in Workload.allCases {
        for pattern in workload.benchmarkedPatterns {
          suite(WorkloadCase(workload, pattern: pattern, n: n, seed: Self.seed), backend)
        }
      }
    }
  }

  /// One suite: the framework measures the driver's timed region, once per run.
  ///
  /// The malloc threshold allows fewer than half an allocation per iteration of that region's
  /// loop (`Workload.iterations(n:scale:)`: writes for `notify`, steps for `churn`, observers
  /// for the others): the framework counts every thread's allocations, and its own worker
  /// threads occasionally allocate while a long region runs. One more allocation per iteration
  /// (the regression the check exists for) always exceeds it.
  private func suite<Backend: ObservationBackend>(
    _ workloadCase: WorkloadCase, _ backend: Backend
  ) {
    let tolerance = workloadCase.workload.iterations(n: workloadCase.n) / 2
    Benchmark(
      "\(Self.name(of: workloadCase))_\(backend.name)_\(workloadCase.n)",
      configuration: .init(thresholds: [.mallocCountTotal: .init(absolute: [.p90: tolerance])])
    ) { benchmark in
      var probe = MemoryProbe()
      probe.regionWillStart = { benchmark.startMeasurement() }
      probe.regionDidEnd = { benchmark.stopMeasurement() }
      blackHole(checked(Drivers.run(workloadCase, on: backend, probe: probe)))
    }
  }

  /// The workload's part of a suite's name: `notify`, or `cancel-random` with a pattern.
  static func name(of workloadCase: WorkloadCase) -> String {
    let workload = workloadCase.workload.rawValue
    return workloadCase.pattern == .single
      ? workload : "\(workload)-\(workloadCase.pattern.rawValue)"
  }
}

/// Stops the run if a workload's self-check failed: a number from a wrong result is no number.
func checked(_ sample: Sample) -> Sample {
  if let problem = sample.problem { fatalError("workload self-check failed: \(problem)") }
  return sample
}
