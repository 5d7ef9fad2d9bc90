import DenseBackend
import Foundation
import ObservationBackends
import ObservationCore
import ObservationReports
import ObservationWorkloads
import ObservatoryBuiltInRows
import TestTraits
import Testing

@testable import ObservationHarness

/// A backend that loses every other write: each cell's self-check must notice.
final class LossyObservers: ObservableValue {
  final class Token: ObservationToken {
    func cancel() {}
  }
  private var handlers: [(Int) -> Void] = []
  private var writes = 0
  init(_ value: Int) { self.value = value }
  var value: Int {
    didSet {
      writes += 1
      if writes.isMultiple(of: 2) { return }
      for handler in handlers { handler(value) }
    }
  }
  func observe(_ handler: @escaping (Int) -> Void) -> Token {
    handlers.append(handler)
    return Token()
  }
}

struct LossyBackend: ObservationBackend {
  var name: String { "lossy" }
  var capabilities: BackendCapabilities {
    BackendCapabilities(timing: .didSet, [.deliversEveryValue], maxReentrancyDepth: .bounded(1))
  }
  func makeSubject(initialValue: Int) -> LossyObservers { LossyObservers(initialValue) }
}

@Suite("Cells")
struct CellTests {
  static let ownBackends = BackendCatalog.names.filter(BackendCatalog.isOwnBackend)
  /// The backends over OpenCombine, which is compiled here, with the sanitizers when they run.
  static let openCombineBackends = BackendCatalog.names.filter {
    BackendCatalog.provenance(of: $0) == .library("OpenCombine")
  }
  /// The backends over the toolchain's own libraries (Observation, Foundation, Swift
  /// concurrency), which come prebuilt: the address sanitizer sees none of their code, only
  /// the harness's, which every other backend's cells run too.
  static let toolchainBackends = BackendCatalog.names.filter {
    !BackendCatalog.isOwnBackend($0) && BackendCatalog.provenance(of: $0) != .library("OpenCombine")
  }

  @Test("Every workload measures and passes its self-check on our backends", arguments: ownBackends)
  func ownBackendCells(_ backend: String) async throws {
    try await checkEveryCell(of: backend)
  }

  /// Kept apart from our own backends because the address-sanitizer run checks these for
  /// memory errors only.
  @Test(
    "…and on the backends built on OpenCombine", arguments: openCombineBackends)
  func openCombineBackendCells(_ backend: String) async throws {
    try await checkEveryCell(of: backend)
  }

  /// Kept apart because the address-sanitizer run leaves them out: the libraries come prebuilt,
  /// so the sanitizer would see only the harness's code, which the cells above run as well, and
  /// `Observations` tasks can stay reachable only from registrations that the toolchain's
  /// `Observation` registrar leaks (see the LSan suppressions).
  @Test(
    "…and on the backends built on the toolchain's libraries", .tags(.overPrebuiltLibraries),
    .notUnderAddressSanitizer(
      "the libraries come prebuilt: the sanitizer sees only the harness code every cell runs"),
    arguments: toolchainBackends)
  func toolchainBackendCells(_ backend: String) async throws {
    try await checkEveryCell(of: backend)
  }

  /// One cell run in this process, and what it measured.
  private struct Run: @unchecked Sendable {
    var workload: Workload
    var pattern: WorkloadPattern
    var depth: Int
    /// The repetitions asked for, which a cell that passed its self-check has measured.
    var repetitions: Int
    var outcome: CellOutcome?
  }

  /// Every workload and pattern at n = 16, and the nested workload at depths 1 to 5.
  ///
  /// The cells run on a thread of their own, not on the cooperative pool: each holds its thread
  /// for seconds, the pool has as many threads as cores, and two cases at once on a 2-core
  /// machine would leave no pool thread for the tasks a backend needs there (`share()` takes
  /// from its source in one), in this test and in every other test meanwhile.
  private func checkEveryCell(of backend: String) async throws {
    let runs = await withCheckedContinuation { continuation in
      Thread.detachNewThread { continuation.resume(returning: Self.everyCell(of: backend)) }
    }
    for run in runs {
      let label = "\(backend) \(run.workload) \(run.pattern) depth \(run.depth)"
      let outcome = try #require(run.outcome, "\(label)")
      // A contended workload runs only where the backend declares threadSafe.
      if let reason = MeasuredBackend.builtIns.row(named: backend)?.reasonNotMeasured(
        on: run.workload)
      {
        #expect(outcome.problem == reason, "\(label)")
        continue
      }
      if let pinned = Self.pinnedProblem(backend, run.pattern, depth: run.depth) {
        #expect(outcome.problem.map(pinned) == true, "\(label): \(outcome.problem ?? "no problem")")
        continue
      }
      #expect(outcome.problem == nil, "\(label): \(outcome.problem ?? "")")
      #expect(outcome.nanosecondsPerOperation.count == run.repetitions, "\(label)")
    }
  }

  /// A self-check a backend fails by a finding, pinned: `async-share`'s rebinding chains of
  /// three levels or more get deliveries they did not ask for, because a side made after a
  /// write can still receive it (DIFF-01's finding, reproduced in `AsyncShareFindingsTests`);
  /// the sweep reports those cells `invalid`. How many depends on how many of the chain's new
  /// sides `share()`'s task reaches first: one at depth 3, one or two at depth 5 (a clean-clone
  /// `swift test` saw 122 for 120). At depth 2 the chain gets what it asked for (three runs out
  /// of three here).
  private static func pinnedProblem(
    _ backend: String, _ pattern: WorkloadPattern, depth: Int
  ) -> ((String) -> Bool)? {
    guard backend == "async-share" && pattern == .rebind && depth >= 3 else { return nil }
    return { problem in
      // "after the timed region: expected E deliveries summing to E, observed E+k summing to
      // E+k": k > 0 extra deliveries of the value written, never one missing.
      let numbers = problem.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
      return problem.hasPrefix("after the timed region: expected ") && numbers.count == 4
        && numbers[2] > numbers[0] && numbers[3] - numbers[1] == numbers[2] - numbers[0]
    }
  }

  private static func everyCell(of backend: String) -> [Run] {
    var runs: [Run] = []
    for workload in Workload.allCases {
      for pattern in workload.patterns {
        let depth = workload.hasDepth ? 3 : 0
        runs.append(
          Run(
            workload: workload, pattern: pattern, depth: depth, repetitions: 2,
            outcome: CellExecution.run(
              // A generous budget: this checks correctness, and under the address sanitizer an
              // asynchronous backend's repetition takes seconds.
              CellRequest(
                backend: backend, workload: workload, pattern: pattern, n: 16, depth: depth,
                threads: workload.isContended ? 2 : 1, repetitions: 2, budget: 120, seed: 7),
              among: MeasuredBackend.builtIns)))
      }
    }
    for (depth, pattern) in [(1, WorkloadPattern.leaf), (2, .rebind), (5, .leaf), (5, .rebind)] {
      runs.append(
        Run(
          workload: .nested, pattern: pattern, depth: depth, repetitions: 1,
          outcome: CellExecution.run(
            CellRequest(
              backend: backend, workload: .nested, pattern: pattern, n: 8, depth: depth,
              repetitions: 1, budget: 120, seed: 1),
            among: MeasuredBackend.builtIns)))
    }
    return runs
  }

  @Test("The reference rows measure too")
  func references() throws {
    for name in MeasuredBackend.references.map(\.name) {
      let outcome = try #require(
        CellExecution.run(
          CellRequest(
            backend: name, workload: .notify, n: 64, repetitions: 2, budget: 10, seed: 1),
          among: MeasuredBackend.references))
      #expect(outcome.problem == nil)
    }
  }

  @Test("A backend that loses values fails the self-check of every workload that writes")
  func lossyBackendIsInvalid() {
    let probe = MemoryProbe()
    #expect(Drivers.notify(LossyBackend(), n: 8, probe: probe).problem != nil)
    #expect(Drivers.fanIn(LossyBackend(), n: 8, probe: probe).problem != nil)
    let outcome = CellExecution.repeatMeasuring(
      { Drivers.notify(LossyBackend(), n: 8, probe: probe, scale: $0) }, repetitions: 3, budget: 5,
      memory: false)
    #expect(outcome.problem != nil && outcome.nanosecondsPerOperation.isEmpty)
  }

  @Test(
    "A slow backend is calibrated by the short warm-up alone; a fast one warms up at 1/16 too",
    arguments: [(0.0, [1.0 / 64]), (Double.infinity, [1.0 / 64, 1.0 / 16])])
  func warmUpCalibrates(calibrationSeconds: Double, warmUps: [Double]) {
    let scales = ScaleLog()
    let outcome = CellExecution.repeatMeasuring(
      { scale in
        scales.fractions.append(scale.fraction)
        return Drivers.notify(DenseStrategy(), n: 8, probe: MemoryProbe(), scale: scale)
      }, repetitions: 2, budget: 5, memory: false, calibrationSeconds: calibrationSeconds)
    #expect(outcome.problem == nil && outcome.nanosecondsPerOperation.count == 2)
    #expect(Array(scales.fractions.prefix(warmUps.count)) == warmUps)
    #expect(scales.fractions.count == warmUps.count + 2)
    // Every measured repetition does the scale the last warm-up calibrated.
    #expect(Set(scales.fractions.dropFirst(warmUps.count)) == [outcome.scale])
  }

  @Test("The nested workload needs nested observation, native or through generic subjects")
  func nestedNeedsAFixture() {
    #expect(
      Drivers.nested(LossyBackend(), n: 4, depth: 3, pattern: .leaf, probe: MemoryProbe()) == nil)
  }

  @Test("An unknown backend is no cell")
  func unknownBackend() {
    #expect(
      CellExecution.run(
        CellRequest(backend: "nope", workload: .notify, n: 1, repetitions: 1, budget: 1, seed: 0),
        among: MeasuredBackend.builtIns)
        == nil)
  }

  @Test(
    "A backend from outside the catalog is measured as the built-in ones are, self-check included")
  func outsideBackendIsMeasured() throws {
    let rows = [MeasuredBackend(LossyBackend())]
    let outcome = try #require(
      CellExecution.run(
        CellRequest(
          backend: "lossy", workload: .subscribe, n: 8, repetitions: 1, budget: 5, seed: 0),
        among: rows))
    #expect(outcome.problem == nil && outcome.nanosecondsPerOperation.count == 1)
    let notify = try #require(
      CellExecution.run(
        CellRequest(backend: "lossy", workload: .notify, n: 8, repetitions: 1, budget: 5, seed: 0),
        among: rows))
    #expect(notify.problem != nil)
  }
}

@Suite("Backend descriptions")
struct BackendDescriptionTests {
  @Test("Nested variants and library provenance are declared by the catalog, not read off names")
  func declaredFacts() throws {
    let rows = MeasuredBackend.builtIns
    let variants = rows.filter { $0.description.nestedVariantOf != nil }
    #expect(
      variants.map(\.name) == ["combine-published-flatmap", "combine-published-switchtolatest"])
    for variant in variants {
      let base = try #require(rows.row(named: variant.description.nestedVariantOf ?? ""))
      #expect(base.description.nestedVariantOf == nil)
      #expect(!variant.isMeasuredByDefault(on: .notify) && variant.isMeasuredByDefault(on: .nested))
    }
    let own = rows.filter { $0.description.provenance == .original }.map(\.name)
    #expect(
      own == [
        "linked-list", "array", "dense", "dense-handles", "dense-synchronized", "key-path",
        "async-broadcast",
      ])
    // Every catalog backend, and dense-handles, which the suite does not run (its handles are
    // not the contract's tokens), measured on subscribe and cancel only.
    #expect(rows.filter { $0.backend != nil }.map(\.name) == BackendCatalog.names)
    #expect(
      rows.filter { $0.backend == nil }.map(\.name) == MeasuredBackend.measuredOnly.map(\.row.name))
    let handles = try #require(rows.row(named: "dense-handles"))
    #expect(handles.kind == .backend && handles.backend == nil)
    #expect(Workload.allCases.filter(handles.measures) == [.subscribe, .cancel])
    for reference in MeasuredBackend.references {
      #expect(reference.kind == .reference && reference.backend == nil)
      #expect(reference.isMeasuredByDefault(on: .notify))
      #expect(!reference.isMeasuredByDefault(on: .churn))
    }
    // The C limit and the asynchronous floor have a loop for each headline workload; the Swift
    // closure array also subscribes (appending to a reserved array).
    #expect(
      MeasuredBackend.references.filter { $0.isMeasuredByDefault(on: .subscribe) }.map(\.name)
        == ["reference-c", "reference-swift-closures", "reference-async-tasks"])
    #expect(
      MeasuredBackend.references.filter { $0.isMeasuredByDefault(on: .cancel) }.map(\.name)
        == ["reference-c", "reference-async-tasks"])
  }
}

/// The scales a measuring closure was asked for, in order.
private final class ScaleLog {
  var fractions: [Double] = []
}
