import Foundation

/// A report as Bencher Metric Format (BMF) JSON, the input of `bencher run --adapter json`:
/// one benchmark per measured cell, named ``Cell/benchmarkName``, each holding its measures.
///
/// ```json
/// {
///   "linked-list/notify/-/n=1024/allocator=jemalloc": {
///     "allocations": { "value": 0 },
///     "allocated-bytes": { "value": 0 },
///     "latency": { "lower_value": 2.1, "upper_value": 2.6, "value": 2.3 }
///   }
/// }
/// ```
///
/// - `latency`: the median nanoseconds per operation of a time report: Bencher's built-in
///   Latency measure, whose unit is the nanosecond. `instructions`: the instructions per
///   operation of an instruction-count report. Both carry ``CellResult/costBounds`` as
///   `lower_value` and `upper_value` when there are any.
/// - `allocations` and `allocated-bytes`: allocation requests and bytes allocated per
///   operation, where jemalloc counted them (`allocs_per_op`, `bytes_per_op`).
///
/// The schema (`https://bencher.dev/bmf.json`) allows nothing but benchmarks and measures, so
/// the machine and the build are not in the document: they are the testbed `bencher run
/// --testbed` names (``suggestedTestbed(for:)``).
public enum BencherMetricFormat {
  /// One measure's numbers: what BMF calls a metric.
  public struct Values: Encodable, Equatable, Sendable {
    /// The measured value.
    public var value: Double
    /// The lower end of the value's range, if known.
    public var lowerValue: Double?
    /// The upper end of the value's range, if known.
    public var upperValue: Double?

    private enum CodingKeys: String, CodingKey {
      case value
      case lowerValue = "lower_value"
      case upperValue = "upper_value"
    }
  }

  /// The measure slug of a cost in `metric`: `latency` for time (Bencher's built-in measure, in
  /// nanoseconds), `instructions` for an instruction count.
  ///
  /// - Complexity: O(1).
  public static func measure(of metric: Metric) -> String {
    switch metric {
    case .time: return "latency"
    case .instructions: return "instructions"
    }
  }

  /// The measure slug of allocation requests per operation.
  public static let allocationsMeasure = "allocations"
  /// The measure slug of bytes allocated per operation.
  public static let allocatedBytesMeasure = "allocated-bytes"

  /// The document of `results`' measured cells: benchmark name → measure slug → metric.
  ///
  /// - Complexity: O(*r*) for *r* results.
  public static func document(_ results: [CellResult]) -> [String: [String: Values]] {
    var document: [String: [String: Values]] = [:]
    for result in ExportSelection(results).exported {
      guard let cost = result.cost else { continue }
      let bounds = result.costBounds
      var measures = [
        measure(of: result.metric): Values(
          value: cost, lowerValue: bounds?.lower, upperValue: bounds?.upper)
      ]
      if let allocations = result.allocationsPerOperation {
        measures[allocationsMeasure] = Values(value: allocations)
      }
      if let bytes = result.bytesPerOperation {
        measures[allocatedBytesMeasure] = Values(value: bytes)
      }
      document[result.cell.benchmarkName] = measures
    }
    return document
  }

  /// ``document(_:)`` as JSON text: keys sorted, so that two exports diff line by line.
  ///
  /// - Throws: `EncodingError` for a number JSON cannot hold, which a report read by
  ///   ``Report/read(_:)`` never has (it refuses numbers that are not finite).
  /// - Complexity: O(*r* log *r*) for *r* results.
  public static func json(_ results: [CellResult]) throws -> String {
    try JSONText.encode(document(results))
  }

  /// The longest testbed slug Bencher accepts.
  public static let longestTestbed = 64

  /// A Bencher testbed name for the machine and build of `environment`, in kebab case:
  /// host, processor, cores and build, `vm-intel-r-xeon-r-processor-2-cores-release-static-stdlib`.
  /// The build is part of it because a statically linked runtime alone moves costs (`compare`
  /// refuses to compare two builds); the processor's words are shortened when the whole would
  /// be longer than ``longestTestbed``.
  ///
  /// - Complexity: O(*c*) for *c* characters of the environment's fields.
  public static func suggestedTestbed(for environment: RunEnvironment) -> String {
    let head = kebab(environment.host)
    let tail = "\(environment.cores)-cores-" + kebab(environment.build)
    var processor = kebab(environment.cpu)
    let room = longestTestbed - head.count - tail.count - 2
    if processor.count > room {
      processor = String(processor.prefix(Swift.max(0, room)))
      while processor.hasSuffix("-") { processor.removeLast() }
    }
    var testbed = [head, processor, tail].filter { !$0.isEmpty }.joined(separator: "-")
    // A host name too long to leave room for anything else is cut too.
    if testbed.count > longestTestbed { testbed = String(testbed.prefix(longestTestbed)) }
    while testbed.hasSuffix("-") { testbed.removeLast() }
    return testbed
  }

  /// `text` in lower-case ASCII letters and digits, each run of anything else one `-`.
  private static func kebab(_ text: String) -> String {
    var slug = ""
    for character in text.lowercased() {
      if character.isASCII && (character.isLetter || character.isNumber) {
        slug.append(character)
      } else if !slug.isEmpty && !slug.hasSuffix("-") {
        slug.append("-")
      }
    }
    while slug.hasSuffix("-") { slug.removeLast() }
    return slug
  }
}
