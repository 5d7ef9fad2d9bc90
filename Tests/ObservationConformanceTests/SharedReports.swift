import ObservationBackends
import ObservationCore
import Synchronization
import TestTraits

@testable import ObservationConformance

/// Each built-in backend's whole-suite report, run once per test process and shared by that
/// backend's rule test cases, directly and through its erased handles.
///
/// A rule run on its own (`ConformanceSuite.run(_:on:)`) evaluates whatever it depends on in a
/// fresh context: ERASE-01 runs the whole suite through the erased handles, and each META rule
/// the whole suite again. One report per backend is also what `observatory conformance` and an
/// adopter's isolated run produce, so the test cases check the outcomes the matrix holds.
///
/// The direct run gets its erased outcomes from the erased report, as an isolated run's child
/// gets them from the children before it (``ErasedRunObserver``): ERASE-01 compares the same
/// outcomes without running the suite through the erased handles a second time.
///
/// The stochastic rules make ``ConformanceConfiguration/concurrencyProbeIterations`` iterations
/// (``configuration``), as ``FixtureReports`` do; under a sanitizer, the sanitizer's
/// configuration (``SanitizerPass/suiteConfiguration``). These backends are the catalogue's,
/// and their THR rules at full strength (459 iterations, directly and through the erased
/// handles) are held by the matrix: the README's `observatory conformance`, optimized and
/// isolated, which CI runs afresh on every backend and holds to `Results/conformance.csv`. In
/// this debug build, in process, those iterations on `dense-synchronized` were most of the
/// suite's time on the backends written here (about 100 s of processor time).
///
/// The first case that asks for a report starts its run as a task; the others await that task.
/// The run itself is on a thread of its own (``ReportThreads``), so the cooperative threads stay
/// free for other tests meanwhile, also while its rules wait.
enum SharedReports {
  /// How a backend is run.
  enum Handles: Hashable, Sendable {
    /// The backend itself.
    case direct
    /// The backend through `ErasedBackend`.
    case erased
  }

  private struct Key: Hashable, Sendable {
    var backend: String
    var handles: Handles
  }

  /// The configuration the reports run with: a sanitizer's under a sanitizer, else the
  /// standard one with ``ConformanceConfiguration/concurrencyProbeIterations`` of each
  /// stochastic rule.
  static var configuration: ConformanceConfiguration {
    Sanitizer.address || Sanitizer.thread
      ? SanitizerPass.suiteConfiguration
      : ConformanceConfiguration(
        stochasticIterations: ConformanceConfiguration.concurrencyProbeIterations)
  }

  private static let runs = Mutex<[Key: Task<ConformanceReport, Never>]>([:])

  /// The report of the built-in backend called `name` through `handles`, run on first use.
  ///
  /// - Precondition: the catalog has a backend called `name`.
  /// - Complexity: the whole suite on that backend, directly and through its erased handles,
  ///   the first time (seconds); O(1) afterwards.
  static func report(_ name: String, _ handles: Handles) async -> ConformanceReport {
    let run = runs.withLock { runs in
      let key = Key(backend: name, handles: handles)
      if let started = runs[key] { return started }
      let started = Task {
        switch handles {
        case .erased:
          return await ReportThreads.run { runErased(BackendCatalog.backend(named: name)!) }
        case .direct:
          let erased = await report(name, .erased)
          return await ReportThreads.run {
            runDirect(BackendCatalog.backend(named: name)!, knownThroughErasure: erased)
          }
        }
      }
      runs[key] = started
      return started
    }
    return await run.value
  }

  /// The whole suite on `backend` at full strength, with the outcomes through its erased
  /// handles (ERASE-01's) from a run at ``configuration``'s iterations: for a backend the
  /// catalogue does not list, whose THR rules nothing else runs at full strength, at half the
  /// cost of both runs at full strength.
  ///
  /// - Complexity: the whole suite on `backend`, directly and through its erased handles.
  static func fullStrengthReport(of backend: some ObservationBackend) -> ConformanceReport {
    runDirect(backend, knownThroughErasure: runErased(backend), configuration: .standard)
  }

  private static func runErased<Backend: ObservationBackend>(
    _ backend: Backend
  ) -> ConformanceReport {
    ConformanceSuite.run(ErasedBackend(backend), configuration: configuration)
  }

  private static func runDirect<Backend: ObservationBackend>(
    _ backend: Backend, knownThroughErasure erased: ConformanceReport,
    configuration: ConformanceConfiguration = configuration
  ) -> ConformanceReport {
    let known = Dictionary(
      uniqueKeysWithValues: erased.results.filter { !$0.rule.traits.contains(.suiteLevel) }.map {
        ($0.rule.id, $0.outcome)
      })
    let observer = ErasedRunObserver(known: known, willRun: { _, _ in }, didRun: { _, _ in })
    return ErasedRunObserver.$current.withValue(observer) {
      ConformanceSuite.run(backend, configuration: configuration)
    }
  }
}
