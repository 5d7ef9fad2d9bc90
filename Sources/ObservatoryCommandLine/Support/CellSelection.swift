import ArgumentParser
import Foundation
import ObservationHarness
import ObservationWorkloads

/// The options that choose a sweep's cells, shared by `run` and `ab`: backends, workloads,
/// sizes, depths and allocators.
struct CellSelection: ParsableArguments {
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
    name: .long,
    help: """
      system, jemalloc or all; default: jemalloc when installed, else system (system for \
      --metric instructions).
      """)
  var allocator: String?

  @Flag(name: .long, help: "A smoke sweep of about a minute: sizes 1, 16, 256, fewer repetitions.")
  var quick = false

  /// Whether the options measure less than the default sweep (or the quick one).
  var isNarrowed: Bool {
    backend != nil || workload != nil || sizes != nil || depths != nil || allocator != nil
  }

  func validate() throws {
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
    guard !workload.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw ValidationError(
        "--workload is empty; accepted: \(Workload.allCases.map(\.rawValue).joined(separator: ", "))"
      )
    }
    var chosen: [Workload] = []
    for part in workload.split(separator: ",", omittingEmptySubsequences: false) {
      let name = part.trimmingCharacters(in: .whitespaces)
      guard let value = Workload(rawValue: name) else {
        throw ValidationError(
          "unknown workload '\(name)' in --workload; accepted: \(Workload.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      if chosen.contains(value) {
        throw ValidationError("workload '\(name)' is named twice in --workload")
      }
      chosen.append(value)
    }
    return chosen
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

  /// The allocators to measure with, given where jemalloc is (`nil`: not installed).
  ///
  /// - Parameter preferSystem: default to the system allocator even where jemalloc is
  ///   installed (instruction counts: jemalloc purges on a clock, so its counts vary).
  func allocators(jemalloc: String?, preferSystem: Bool = false) throws -> [Allocator] {
    let allocators =
      try requestedAllocators() ?? (jemalloc == nil || preferSystem ? [.system] : [.jemalloc])
    if allocators.contains(.jemalloc) && jemalloc == nil {
      throw ValidationError(
        "--allocator \(allocator ?? "jemalloc") needs jemalloc, which was not found; install it"
          + " (Debian: apt-get install libjemalloc-dev) or set OBSERVATORY_JEMALLOC to libjemalloc.so.2"
      )
    }
    return allocators
  }

  /// Every cell selected, in sweep order: per allocator, the reference rows, then each
  /// backend's workloads, patterns, depths and sizes.
  func plans(allocators: [Allocator]) throws -> [Cell] {
    let sizes = try plannedSizes()
    let depths = try plannedDepths()
    let workloads = try plannedWorkloads()
    // Variants that differ only in nested observation (the Combine chains) measure the same
    // subject as their base backend: unless named, they are measured on the nested workload
    // only.
    let backends = try BackendSelection.parse(backend)
    var plans: [Cell] = []
    for allocator in allocators {
      for reference in MeasuredBackend.references where workloads.contains(.notify) {
        for n in sizes {
          plans.append(
            Cell(
              allocator: allocator, backend: reference.name, workload: .notify,
              n: n))
        }
      }
      for row in backends {
        let name = row.name
        for workload in workloads
        where self.backend != nil || row.isMeasuredByDefault(on: workload) {
          for depth in workload.hasDepth ? depths : [0] {
            // Rebinding replaces an intermediate, which a path of one property does not have.
            for pattern in workload.patterns
            where !workload.hasDepth || depth >= pattern.minimumDepth {
              for n in sizes {
                plans.append(
                  Cell(
                    allocator: allocator, backend: name, workload: workload,
                    pattern: pattern, n: n, depth: depth))
              }
            }
          }
        }
      }
    }
    return plans
  }
}
