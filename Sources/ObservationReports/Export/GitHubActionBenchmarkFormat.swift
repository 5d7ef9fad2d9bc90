import Foundation

/// A report as the JSON github-action-benchmark reads with `tool: 'customSmallerIsBetter'`: an
/// array of one entry per measured cell, in report order.
///
/// ```json
/// [
///   {
///     "extra": "host: vm\ncpu: Intel(R) Xeon(R) Processor\ncores: 2\n...",
///     "name": "linked-list/notify/-/n=1024/allocator=jemalloc",
///     "range": "±0.3",
///     "unit": "ns",
///     "value": 2.3
///   }
/// ]
/// ```
///
/// The fields are the action's `BenchmarkResult` (its `src/extract.ts`): `name`, `unit` and
/// `value` required, `range` and `extra` optional strings. `name` is ``Cell/benchmarkName``;
/// `value` the cell's ``CellResult/cost``, in `unit` `ns` (median nanoseconds per operation) or
/// `instructions` (per operation); `range` is `±` the larger distance from the cost to either
/// end of ``CellResult/costBounds``. `extra`, which the action shows beside a point, names the
/// machine and the build the cost belongs to, since the format has no other place for them:
/// host, processor, cores, operating system, Swift, build, allocator (with jemalloc's version),
/// commit, date, and the ratio to the limit row, allocations and bytes per operation when the
/// report has them, one `key: value` a line.
public enum GitHubActionBenchmarkFormat {
  /// One benchmark: the action's `BenchmarkResult`.
  public struct Entry: Encodable, Equatable, Sendable {
    /// The benchmark's name, the same in every report.
    public var name: String
    /// The value's unit: `ns` or `instructions`.
    public var unit: String
    /// The cost per operation.
    public var value: Double
    /// How far the cost spread, `±x` in the value's unit.
    public var range: String?
    /// The machine, the build and the other columns, one `key: value` a line.
    public var extra: String?
  }

  /// The unit of a cost in `metric`: `ns` or `instructions`.
  ///
  /// - Complexity: O(1).
  public static func unit(of metric: Metric) -> String {
    switch metric {
    case .time: return "ns"
    case .instructions: return "instructions"
    }
  }

  /// The entries of `results`' measured cells, in report order.
  ///
  /// - Complexity: O(*r*) for *r* results.
  public static func entries(_ results: [CellResult]) -> [Entry] {
    ExportSelection(results).exported.compactMap { result in
      guard let cost = result.cost else { return nil }
      let range = result.costBounds.map { bounds in
        "±" + csvNumber(Swift.max(cost - bounds.lower, bounds.upper - cost))
      }
      return Entry(
        name: result.cell.benchmarkName, unit: unit(of: result.metric), value: cost, range: range,
        extra: extra(of: result))
    }
  }

  /// What `extra` says of `result`: the machine, the build and the run, then the columns of the
  /// result the entry has no field for, one `key: value` a line.
  ///
  /// - Complexity: O(1).
  public static func extra(of result: CellResult) -> String {
    let environment = result.environment
    var allocator = result.cell.allocator.rawValue
    if let version = result.allocatorVersion { allocator += " " + version }
    var lines = [
      ("host", environment.host), ("cpu", environment.cpu), ("cores", String(environment.cores)),
      ("os", environment.os), ("swift", environment.swift), ("build", environment.build),
      ("allocator", allocator), ("commit", environment.commit), ("date", environment.date),
    ]
    if let repetitions = result.repetitions {
      lines.append((result.metric == .instructions ? "processes" : "repetitions", "\(repetitions)"))
    }
    let numbers: [(String, Double?)] = [
      ("ratio to limit", result.ratioToLimit), ("allocs/op", result.allocationsPerOperation),
      ("bytes/op", result.bytesPerOperation),
    ]
    for (key, value) in numbers {
      if let value { lines.append((key, csvNumber(value))) }
    }
    return lines.map { "\($0.0): \($0.1)" }.joined(separator: "\n")
  }

  /// ``entries(_:)`` as JSON text, each entry's keys sorted, so that two exports diff line by
  /// line.
  ///
  /// - Throws: `EncodingError` for a number JSON cannot hold, which a report read by
  ///   ``Report/read(_:)`` never has (it refuses numbers that are not finite).
  /// - Complexity: O(*r*) for *r* results.
  public static func json(_ results: [CellResult]) throws -> String {
    try JSONText.encode(entries(results))
  }
}
