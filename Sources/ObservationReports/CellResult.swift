import ObservationWorkloads

/// One cell's line of a report: the cell, where it was measured, what it cost, and its status.
///
/// The CSV report (schema 5, documented in `Results/README.md`) and the JSON one are two
/// serializations of this type: the JSON object of a result has the CSV's columns as keys,
/// numbers as numbers, and no key for an empty column.
public struct CellResult: Equatable, Sendable {
  /// The report schema the result was written with (`1` to `5`).
  public var schema: String
  /// The run, machine and toolchain.
  public var environment: RunEnvironment
  /// The cell.
  public var cell: Cell
  /// The version of jemalloc a `jemalloc` cell ran on, as jemalloc reports it (`5.3.0-0-g…`);
  /// `nil` for a `system` cell, and in a report of schema 4 or older.
  public var allocatorVersion: String?
  /// Whether the row measures a backend or the machine (`row_kind`).
  public var rowKind: RowKind
  /// What one operation is: a `delivery`, a `subscription`, a `cancellation`, ...: what the
  /// cell's workload counts (`unit`, written for readers of the file, checked when read).
  public var unit: String { cell.workload.unit }
  /// Whether the row is a reference loop, which measures the machine, not code.
  public var isReference: Bool { rowKind == .reference }
  /// What the cost columns count.
  public var metric: Metric
  /// Measured repetitions (time) or processes (instructions).
  public var repetitions: Int?
  /// Time: order statistics of nanoseconds per operation over the repetitions.
  public var nanoseconds: Quantiles?
  /// Instructions: the median count per operation over the processes.
  public var instructionsPerOperation: Double?
  /// Instructions: (max − min) / median over the processes.
  public var instructionsSpread: Double?
  /// Level-1 data cache misses per operation (`--cache-sim`).
  public var d1MissesPerOperation: Double?
  /// Last-level cache misses per operation (`--cache-sim`).
  public var llMissesPerOperation: Double?
  /// Notify: the median over the C reference's median at the same size and allocator.
  public var ratioToLimit: Double?
  /// Allocations per operation (jemalloc).
  public var allocationsPerOperation: Double?
  /// Bytes allocated per operation (jemalloc).
  public var bytesPerOperation: Double?
  /// Bytes still allocated per observer after subscribing (jemalloc).
  public var retainedBytesPerObserver: Double?
  /// An asynchronous backend's `notify`: the median nanoseconds from a write to its last
  /// observer's callback, over every write measured (schema 3).
  public var latencyMedian: Double?
  /// The 99th percentile of the same latencies (schema 3).
  public var latencyP99: Double?
  /// Whether the cell was measured, and if not why.
  public var status: Status

  /// Order statistics of a cell's costs.
  public struct Quantiles: Equatable, Sendable {
    /// The smallest.
    public var min: Double
    /// The median.
    public var median: Double
    /// The 90th percentile.
    public var p90: Double
    /// The largest.
    public var max: Double

    /// The order statistics of `values` (linear interpolation between closest ranks); `nil`
    /// for no values.
    ///
    /// - Complexity: O(*v* log *v*) for *v* values.
    package init?(_ values: [Double]) {
      guard !values.isEmpty else { return nil }
      let sorted = values.sorted()
      self.init(
        min: sorted[0], median: Self.quantile(sorted, 0.5), p90: Self.quantile(sorted, 0.9),
        max: sorted[sorted.count - 1])
    }

    /// The `q` quantile of `sorted` (ascending, not empty), interpolating linearly between the
    /// closest ranks.
    ///
    /// - Complexity: O(1).
    package static func quantile(_ sorted: [Double], _ q: Double) -> Double {
      let position = q * Double(sorted.count - 1)
      let lower = Int(position)
      let upper = Swift.min(lower + 1, sorted.count - 1)
      return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }

    /// The order statistics themselves.
    package init(min: Double, median: Double, p90: Double, max: Double) {
      self.min = min
      self.median = median
      self.p90 = p90
      self.max = max
    }
  }

  /// Whether a cell was measured, and if not why: a report's `status` and `note` columns.
  public enum Status: Equatable, Sendable {
    /// Measured, memory columns included.
    case ok
    /// Measured, without the memory columns, for `reason` (no jemalloc).
    case okWithoutMemory(reason: String)
    /// Not measured in full: the cell ran out of its time budget, was stopped at its hard limit,
    /// or was skipped because the sizes before it projected it far past the budget.
    case capped(reason: String)
    /// Measured, but the workload's self-check failed: the backend lost, repeated or reordered
    /// values, so the cost is not reported.
    case invalid(reason: String)
    /// The cell's process failed: a crash, an exit status, no outcome.
    case failed(reason: String)
    /// Not measured, because the workload does not apply to the row, for `reason`: a contended
    /// workload on a backend that does not declare `threadSafe`, where concurrent use is
    /// undefined behaviour (schema 3).
    case notApplicable(reason: String)

    /// What a status is, without its reason: the `status` column's words, spelt once.
    public enum Kind: String, CaseIterable, Sendable {
      /// ``CellResult/Status/ok``.
      case ok
      /// ``CellResult/Status/okWithoutMemory(reason:)``.
      case okWithoutMemory = "ok-no-memory"
      /// ``CellResult/Status/capped(reason:)``.
      case capped
      /// ``CellResult/Status/invalid(reason:)``.
      case invalid
      /// ``CellResult/Status/failed(reason:)``.
      case failed
      /// ``CellResult/Status/notApplicable(reason:)``.
      case notApplicable = "n/a"
    }

    /// What the status is, without its reason.
    public var kind: Kind {
      switch self {
      case .ok: return .ok
      case .okWithoutMemory: return .okWithoutMemory
      case .capped: return .capped
      case .invalid: return .invalid
      case .failed: return .failed
      case .notApplicable: return .notApplicable
      }
    }

    /// The `status` column's value.
    public var name: String { kind.rawValue }

    /// The `note` column's value: why, or empty.
    public var reason: String {
      switch self {
      case .ok: return ""
      case .okWithoutMemory(let reason), .capped(let reason), .invalid(let reason),
        .failed(let reason), .notApplicable(let reason):
        return reason
      }
    }

    /// Whether the cell was measured (`ok` or `ok-no-memory`).
    public var isMeasured: Bool {
      switch self {
      case .ok, .okWithoutMemory: return true
      case .capped, .invalid, .failed, .notApplicable: return false
      }
    }

    /// The names a report's `status` column can hold, in alphabetical order.
    package static let names = Kind.allCases.map(\.rawValue).sorted()

    /// The status called `name` with `reason`, or `nil` for a name no report uses (or `ok`
    /// with a reason, which it never has).
    public init?(name: String, reason: String) {
      switch Kind(rawValue: name) {
      case .ok where reason.isEmpty: self = .ok
      case .okWithoutMemory: self = .okWithoutMemory(reason: reason)
      case .capped: self = .capped(reason: reason)
      case .invalid: self = .invalid(reason: reason)
      case .failed: self = .failed(reason: reason)
      case .notApplicable: self = .notApplicable(reason: reason)
      case .ok, nil: return nil
      }
    }
  }

  /// The cost per operation in the result's metric: the median time or the instruction count;
  /// `nil` if the cell was not measured.
  public var cost: Double? {
    metric == .instructions ? instructionsPerOperation : nanoseconds?.median
  }

  /// The cost with its unit, as tables print it (`35.3 ns`, `3.52 µs`, `344.6 instr`); empty
  /// if the cell was not measured.
  public var costText: String { text(ofCost: cost) }

  /// `cost` in this result's metric with its unit, as a person reads it: a time to three
  /// significant digits in the unit that fits (``readableNanoseconds(_:)``: `35.3 ns`,
  /// `3.52 µs`), an instruction count as the CSV has it (`344.6 instr`: counts are compared to
  /// 1%, which three digits would hide); empty for `nil`.
  ///
  /// - Complexity: O(1).
  package func text(ofCost cost: Double?) -> String {
    guard let cost else { return "" }
    return metric == .instructions ? readableCount(cost) + " instr" : readableNanoseconds(cost)
  }
}

extension CellResult {
  /// A result with no measurement yet, for the harness to fill in: of a row of `rowKind`, or
  /// when that is not given, of the kind the row's name tells (``RowKind/init(ofRowNamed:)``).
  package init(
    cell: Cell, rowKind: RowKind? = nil, environment: RunEnvironment, metric: Metric,
    status: Status, schema: String = ReportSchema.version
  ) {
    self.schema = schema
    self.environment = environment
    self.cell = cell
    self.rowKind = rowKind ?? RowKind(ofRowNamed: cell.backend)
    self.metric = metric
    self.status = status
  }

  /// Every column of the result in schema order, with its value; `nil` for a value the result
  /// does not have.
  ///
  /// - Complexity: O(*c*) for *c* columns.
  package var columns: [(name: String, value: Value?)] {
    ReportColumn.all.map { ($0.name, $0.value(self)) }
  }

  /// A column's value.
  package enum Value: Equatable, Sendable {
    /// Text, written as it is.
    case text(String)
    /// A whole number.
    case integer(Int)
    /// A measurement, written with at most three decimals.
    case number(Double)

    /// The value as the CSV writes it.
    package var csvText: String {
      switch self {
      case .text(let text): return text
      case .integer(let value): return String(value)
      case .number(let value): return csvNumber(value)
      }
    }
  }
}

extension CellResult: Codable {
  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Writes the result as one JSON object: the CSV's columns as keys, numbers as numbers, no
  /// key for an empty column.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    for (name, value) in columns {
      let key = Key(stringValue: name)
      switch value {
      case nil: continue
      case .text(let text)?: try container.encode(text, forKey: key)
      case .integer(let integer)?: try container.encode(integer, forKey: key)
      // The number the CSV holds, so that both serializations say the same.
      case .number(let number)?:
        try container.encode(Double(csvNumber(number)) ?? number, forKey: key)
      }
    }
  }

  /// Reads a result written by ``encode(to:)``, checking every value as the CSV reader does.
  ///
  /// - Throws: `DecodingError` for a missing or malformed column.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    var fields: [String] = []
    for column in ReportColumn.all {
      let key = Key(stringValue: column.name)
      if !container.contains(key) {
        fields.append("")
      } else if let text = try? container.decode(String.self, forKey: key) {
        fields.append(text)
      } else if let integer = try? container.decode(Int.self, forKey: key) {
        fields.append(String(integer))
      } else {
        fields.append(csvNumber(try container.decode(Double.self, forKey: key)))
      }
    }
    do {
      self = try ReportColumn.decode(fields, columns: ReportColumn.all)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "not a cell result: \(error.description)"))
    }
  }
}
