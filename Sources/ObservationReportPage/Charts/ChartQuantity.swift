import ObservationReports

/// What a chart plots against *n*: the report's cost in its metric, or one of the columns
/// measured beside it.
enum ChartQuantity: String, CaseIterable {
  /// Nanoseconds (time) or instructions per operation: the report's `cost`.
  case cost
  /// Allocations per operation (`allocs_per_op`, jemalloc).
  case allocations
  /// Bytes still allocated per observer after subscribing (`retained_bytes_per_observer`).
  case retainedBytes = "retained-bytes"
  /// Level-1 data cache misses per operation (`d1_misses_per_op`, `--cache-sim`).
  case d1Misses = "d1-misses"
  /// Last-level cache misses per operation (`ll_misses_per_op`, `--cache-sim`).
  case llMisses = "ll-misses"
  /// An asynchronous backend's median time from a write to its last callback
  /// (`latency_ns_median`).
  case latency
  /// A trend's cost relative to its report's machine speed (``TrendPage``): the cost divided
  /// by the geometric mean of that report's reference rows, which the page does before
  /// charting. Never charted from one report.
  case relativeCost = "relative-cost"

  /// What a page of one report charts: every quantity but ``relativeCost``.
  static var ofOneReport: [ChartQuantity] { allCases.filter { $0 != .relativeCost } }

  /// The quantity's value for `result`, or `nil` if the cell was not measured or lacks the
  /// column.
  func value(of result: CellResult) -> Double? {
    guard result.status.isMeasured else { return nil }
    switch self {
    case .cost: return result.cost
    case .allocations: return result.allocationsPerOperation
    case .retainedBytes: return result.retainedBytesPerObserver
    case .d1Misses: return result.d1MissesPerOperation
    case .llMisses: return result.llMissesPerOperation
    case .latency: return result.latencyMedian
    case .relativeCost: return result.cost
    }
  }

  /// What a value counts, per what: `ns per delivery`, `allocations per subscription`,
  /// `retained bytes per observer`.
  func unit(metric: Metric, operation: String) -> String {
    switch self {
    case .cost: return (metric == .instructions ? "instructions" : "ns") + " per \(operation)"
    case .allocations: return "allocations per \(operation)"
    case .retainedBytes: return "retained bytes per observer"
    case .d1Misses: return "D1 misses per \(operation)"
    case .llMisses: return "LL misses per \(operation)"
    case .latency: return "ns from a write to its last callback"
    case .relativeCost: return "× the report's reference rows, per \(operation)"
    }
  }

  /// The chart's heading, before the workload's name.
  func heading(metric: Metric) -> String {
    switch self {
    case .cost: return metric == .instructions ? "Instructions" : "Time"
    case .allocations: return "Allocations"
    case .retainedBytes: return "Retained memory"
    case .d1Misses: return "D1 cache misses"
    case .llMisses: return "LL cache misses"
    case .latency: return "Delivery latency (median)"
    case .relativeCost: return metric == .instructions ? "Relative instructions" : "Relative time"
    }
  }

  /// Whether a value can be zero (no allocation, no miss): zero has no place on a logarithmic
  /// axis, so such a chart draws it on a line of its own below the axis.
  var allowsZero: Bool { self != .cost && self != .latency && self != .relativeCost }
}
