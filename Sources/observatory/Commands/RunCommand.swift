import ArgumentParser
import Foundation
import ObservationBackends
import ObservationWorkloads

/// `observatory run` (the default): the sweep.
struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract:
      "Measure subscribe, notify, cancel, churn, fan-in and erased costs over observer counts.",
    discussion: """
      Every backend × workload × size × allocator is a cell, measured in a fresh process with a
      warm-up and repetitions. Writes a CSV report (schema in Results/README.md) atomically to
      --output, by default Results/<date>_<commit>_<host>.csv.
      """)

  static let defaultSizes = [1, 16, 256, 1024, 4096, 65536, 1_048_576]
  static let quickSizes = [1, 16, 256]
  /// The mission's `controller?.player?.title`; `--depths` sweeps others.
  static let defaultDepths = [3]
  static let maximumDepth = 64

  @Option(name: .long, help: "Backends to measure (comma-separated); default: all.")
  var backend: String?

  @Option(name: .long, help: "Workloads to measure (comma-separated); default: all.")
  var workload: String?

  @Option(name: .long, help: "Observer counts (comma-separated positive integers).")
  var sizes: String?

  @Option(
    name: .long,
    help:
      "Path depths for the nested workload (comma-separated, 1 to 64; rebind needs 2 or more; default 3)."
  )
  var depths: String?

  @Option(
    name: .long, help: "system, jemalloc or all; default: jemalloc when installed, else system.")
  var allocator: String?

  @Option(name: .long, help: "Where to write the report; '-' for standard output.")
  var output: String?

  @Flag(name: .long, help: "A seconds-long smoke sweep: sizes 1, 16, 256, fewer repetitions.")
  var quick = false

  @Option(name: .long, help: "Repetitions per cell after the warm-up (default 9; 3 with --quick).")
  var repetitions: Int?

  @Option(name: .long, help: "Seconds per cell before it is capped (default 1).")
  var cellBudget: Double = 1

  @Option(name: .long, help: "Processes each cell's repetitions are spread over (default 3).")
  var processes: Int = 3

  @Flag(name: .long, help: "No progress on standard error.")
  var quiet = false

  @Flag(name: .long, help: "Allow writing a report from a debug build (its numbers mean little).")
  var allowDebug = false

  func validate() throws {
    if RunEnvironment.isDebugBuild && !allowDebug {
      throw ValidationError(
        "this is a debug build; its timings are not worth a report. Use `swift run -c release"
          + " observatory`, or pass --allow-debug")
    }
    if processes < 1 { throw ValidationError("--processes must be at least 1, got \(processes)") }
    if let repetitions, repetitions < 1 {
      throw ValidationError("--repetitions must be at least 1, got \(repetitions)")
    }
    if !(cellBudget > 0) {
      throw ValidationError("--cell-budget must be a positive number of seconds")
    }
    _ = try plannedSizes()
    _ = try plannedDepths()
    _ = try plannedWorkloads()
    _ = try BackendSelection.parse(backend)
    _ = try requestedAllocators()
  }

  func plannedSizes() throws -> [Int] {
    guard let sizes else { return quick ? Self.quickSizes : Self.defaultSizes }
    return try IntegerListOption.parse(sizes, option: "--sizes", entry: "size", range: 1...1 << 24)
  }

  func plannedDepths() throws -> [Int] {
    guard let depths else { return Self.defaultDepths }
    return try IntegerListOption.parse(
      depths, option: "--depths", entry: "depth", range: 1...Self.maximumDepth)
  }

  func plannedWorkloads() throws -> [Workload] {
    guard let workload else { return Workload.allCases }
    return try workload.split(separator: ",").map { part in
      let name = part.trimmingCharacters(in: .whitespaces)
      guard let value = Workload(rawValue: name) else {
        throw ValidationError(
          "unknown workload '\(name)' in --workload; accepted: \(Workload.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      return value
    }
  }

  /// The allocators `--allocator` names, or `nil` when it is absent (the default depends on
  /// whether jemalloc is installed).
  func requestedAllocators() throws -> [Allocator]? {
    switch allocator {
    case nil: return nil
    case "system": return [.system]
    case "jemalloc": return [.jemalloc]
    case "all": return [.system, .jemalloc]
    case let other?:
      throw ValidationError(
        "unknown allocator '\(other)' in --allocator; accepted: system, jemalloc, all")
    }
  }

  func run() throws {
    let jemalloc = JemallocLocator.find()
    let allocators = try requestedAllocators() ?? (jemalloc == nil ? [.system] : [.jemalloc])
    if allocators.contains(.jemalloc) && jemalloc == nil {
      throw ValidationError(
        "--allocator \(allocator ?? "jemalloc") needs jemalloc, which was not found; install it"
          + " (Debian: apt-get install libjemalloc-dev) or set OBSERVATORY_JEMALLOC to libjemalloc.so.2"
      )
    }
    let sizes = try plannedSizes()
    let depths = try plannedDepths()
    let workloads = try plannedWorkloads()
    // Variants that differ only in nested observation (the Combine chains) measure the same
    // subject as their base backend: unless named, they are measured on the nested workload
    // only.
    let backends = try BackendSelection.parse(backend).map(\.name)
    let environment = RunEnvironment.current()
    let destination =
      output
      ?? "Results/\(String(environment.date.prefix(10)))_\(environment.commit)_\(environment.host).csv"

    var plans: [CellPlan] = []
    for allocator in allocators {
      let referenceNames =
        workloads.contains(.notify)
        ? [CellExecution.referenceC, CellExecution.referenceSwift] : []
      for name in referenceNames {
        for n in sizes {
          plans.append(
            CellPlan(allocator: allocator, backend: name, workload: "notify", pattern: "-", n: n))
        }
      }
      for name in backends {
        for workload in workloads
        where self.backend != nil || workload == .nested || !BackendCatalog.isNestedVariant(name) {
          for depth in workload.hasDepth ? depths : [0] {
            // Rebinding replaces an intermediate, which a path of one property does not have.
            for pattern in workload.patterns
            where !workload.hasDepth || depth >= pattern.minimumDepth {
              for n in sizes {
                plans.append(
                  CellPlan(
                    allocator: allocator, backend: name, workload: workload.rawValue,
                    pattern: pattern.rawValue, n: n, depth: depth))
              }
            }
          }
        }
      }
    }

    let repetitionCount = repetitions ?? (quick ? 3 : 9)
    let runner = CellRunner(
      executable: Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]),
      jemallocPath: jemalloc,
      // At large sizes a repetition is mostly set-up and runs alone in its process: two
      // processes still show the noise between processes.
      repetitions: { n in n >= CellExecution.largeSize ? min(repetitionCount, 2) : repetitionCount
      },
      budget: cellBudget, seed: 0x5EED, processes: processes)
    var progress = Progress(total: plans.count, quiet: quiet)
    var cappedSeries: [String: Int] = [:]
    var largestFinished: [String: Int] = [:]
    var projections: [String: CostProjection] = [:]
    var results: [(CellPlan, CellRunner.Result?)] = []
    for plan in plans {
      // Skip a cell once its series ran out of time, or when the sizes measured so far
      // project it far past the budget: a pathological cell must not run for an hour, nor
      // even for its whole hard limit.
      let projected = projections[plan.series]?.projectedSeconds(
        n: plan.n, repetitions: runner.totalRepetitions(plan.n),
        minimumOperations: plan.workload == Workload.churn.rawValue ? 16 : plan.n)
      if cappedSeries[plan.series] != nil || (projected ?? 0) > runner.budget * 1.5 {
        cappedSeries[plan.series] = cappedSeries[plan.series] ?? plan.n
        results.append((plan, nil))
        progress.advance("\(plan.backend) \(plan.workload) n=\(plan.n): capped")
        continue
      }
      let result = runner.run(plan)
      switch result {
      case .finished(let outcome) where !outcome.capped:
        largestFinished[plan.series] = plan.n
        if let summary = Summary(outcome.nanosecondsPerOperation) {
          projections[plan.series, default: CostProjection()].record(
            n: plan.n, secondsPerRepetition: outcome.secondsPerRepetition,
            nanosecondsPerOperation: summary.median)
        }
      case .finished, .timedOut: cappedSeries[plan.series] = plan.n
      case .failed: break
      }
      results.append((plan, result))
      progress.advance(
        "\(plan.allocator.rawValue) \(plan.backend) \(plan.workload) \(plan.pattern)"
          + (plan.depth > 0 ? " depth=\(plan.depth)" : "") + " n=\(plan.n)")
    }

    let rows = ReportBuilder(environment: environment, repetitions: repetitionCount)
      .rows(results, largestFinished: largestFinished)
    let text =
      ([ReportSchema.header] + rows.map { row in CSV.line(ReportSchema.columns.map { row[$0] }) })
      .joined(separator: "\n") + "\n"
    if destination == "-" {
      FileHandle.standardOutput.write(Data(text.utf8))
    } else {
      try AtomicFile.write(text, to: URL(fileURLWithPath: destination))
      progress.finish("observatory: wrote \(rows.count) rows to \(destination)")
    }
  }
}
