import Benchmark
import ObservationBackends
import ObservationCore
import ObservationWorkloads

/// The harness's workloads for every backend in the catalog, as ordo-one/benchmark suites.
///
/// Each iteration runs the same driver as an `observatory` cell (set-up, the measured
/// operations, the self-check), so the deterministic malloc count per iteration guards every
/// allocation on the hot path. Names are `workload_backend_n`, with no tags, so that threshold
/// files are named after the benchmark alone.
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [
      .wallClock, .cpuTotal, .mallocCountTotal, .retainCount, .releaseCount, .instructions,
    ],
    warmupIterations: 1,
    maxDuration: .milliseconds(300),
    maxIterations: 20,
    thresholds: [.mallocCountTotal: .init(absolute: [.p90: 0])])
  var registrar = SuiteRegistrar()
  BackendCatalog.forEach(&registrar)
}

/// Registers the suites for one backend, as its concrete type.
struct SuiteRegistrar: BackendVisitor {
  static let sizes = [16, 1024, 65536]
  let probe = MemoryProbe()

  mutating func visit<Backend: ObservationBackend>(_ backend: Backend) {
    let probe = probe
    for n in Self.sizes {
      Benchmark("subscribe_\(backend.name)_\(n)") { benchmark in
        for _ in benchmark.scaledIterations {
          blackHole(checked(Drivers.subscribe(backend, n: n, probe: probe)))
        }
      }
      Benchmark("notify_\(backend.name)_\(n)") { benchmark in
        for _ in benchmark.scaledIterations {
          blackHole(checked(Drivers.notify(backend, n: n, probe: probe)))
        }
      }
      Benchmark("cancel-random_\(backend.name)_\(n)") { benchmark in
        for _ in benchmark.scaledIterations {
          blackHole(
            checked(Drivers.cancel(backend, n: n, pattern: .random, seed: 0x5EED, probe: probe)))
        }
      }
      Benchmark("churn_\(backend.name)_\(n)") { benchmark in
        for _ in benchmark.scaledIterations {
          blackHole(checked(Drivers.churn(backend, n: n, probe: probe)))
        }
      }
    }
  }
}

/// Stops the run if a workload's self-check failed: a number from a wrong result is no number.
func checked(_ sample: Sample) -> Sample {
  if let problem = sample.problem { fatalError("workload self-check failed: \(problem)") }
  return sample
}
