import ObservationBackends
import ObservationCore
import ObservationWorkloads

/// Runs one cell in this process: warm-up, then repetitions until done or out of time.
enum CellExecution {
  /// The reference rows' backend names.
  static let referenceC = "reference-c"
  static let referenceSwift = "reference-swift-closures"

  static func run(
    backend name: String, workload: Workload, pattern: WorkloadPattern, n: Int, repetitions: Int,
    budget: Double, seed: UInt64
  ) -> CellOutcome? {
    let probe = MemoryProbe()
    let measure: (() -> Sample)?
    if name == referenceC {
      measure = { ReferenceDrivers.cFunctionPointers(n: n, probe: probe) }
    } else if name == referenceSwift {
      measure = { ReferenceDrivers.swiftClosureArray(n: n, probe: probe) }
    } else {
      var visitor = Visitor(
        name: name, workload: workload, pattern: pattern, n: n, seed: seed, probe: probe)
      BackendCatalog.forEach(&visitor)
      measure = visitor.measure
    }
    guard let measure else { return nil }
    return repeatMeasuring(
      measure, repetitions: repetitions, budget: budget, memory: probe.isAvailable,
      skipWarmUp: n >= 1 << 20)
  }

  static func repeatMeasuring(
    _ measure: () -> Sample, repetitions: Int, budget: Double, memory: Bool,
    skipWarmUp: Bool = false
  ) -> CellOutcome {
    var outcome = CellOutcome()
    outcome.memoryMeasured = memory
    let start = Stopwatch.now()
    func elapsed() -> Double { Double(Stopwatch.now() - start) / 1e9 }
    // A warm-up repetition, except at the largest sizes, where one repetition already touches
    // every page it needs and a second would only spend the cell's budget.
    if !skipWarmUp {
      let warmUp = measure()
      if let problem = warmUp.problem {
        outcome.problem = problem
        return outcome
      }
    }
    var samples: [Sample] = []
    while samples.count < repetitions {
      if elapsed() > budget {
        outcome.capped = samples.count < min(3, repetitions)
        break
      }
      let sample = measure()
      if let problem = sample.problem {
        outcome.problem = problem
        return outcome
      }
      samples.append(sample)
    }
    outcome.nanosecondsPerOperation = samples.map(\.nanosecondsPerOperation)
    outcome.wallSeconds = elapsed()
    outcome.secondsPerRepetition =
      outcome.wallSeconds / Double(samples.count + (skipWarmUp ? 0 : 1))
    if let last = samples.last {
      let operations = Double(max(last.operations, 1))
      outcome.allocationsPerOperation = last.allocations.map { Double($0) / operations }
      outcome.bytesPerOperation = last.allocatedBytes.map { Double($0) / operations }
      outcome.retainedBytesPerObserver = last.retainedBytesPerObserver
    }
    return outcome
  }

  /// Finds the backend by name and binds the workload to its concrete type, so the measured
  /// loop is specialized.
  struct Visitor: BackendVisitor {
    let name: String
    let workload: Workload
    let pattern: WorkloadPattern
    let n: Int
    let seed: UInt64
    let probe: MemoryProbe
    var measure: (() -> Sample)?

    mutating func visit<Backend: ObservationBackend>(_ backend: Backend) {
      guard backend.name == name else { return }
      let (workload, pattern, n, seed, probe) = (workload, pattern, n, seed, probe)
      measure = {
        switch workload {
        case .subscribe: return Drivers.subscribe(backend, n: n, probe: probe)
        case .erasedSubscribe: return Drivers.erasedSubscribe(backend, n: n, probe: probe)
        case .notify: return Drivers.notify(backend, n: n, probe: probe)
        case .erasedNotify: return Drivers.erasedNotify(backend, n: n, probe: probe)
        case .cancel:
          return Drivers.cancel(backend, n: n, pattern: pattern, seed: seed, probe: probe)
        case .churn: return Drivers.churn(backend, n: n, probe: probe)
        case .fanIn: return Drivers.fanIn(backend, n: n, probe: probe)
        case .nested:
          return Drivers.nested(backend, n: n, pattern: pattern, probe: probe)
            ?? Sample(
              nanoseconds: 0, operations: 0, problem: "the backend has no nested observation")
        }
      }
    }
  }
}
