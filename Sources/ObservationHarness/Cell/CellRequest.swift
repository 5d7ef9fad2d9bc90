import ObservationReports
import ObservationWorkloads

/// What a sweep asks of one cell process: the cell, how many repetitions in how much time, and
/// how the process measures (the metric, a fixed work scale, turns shared with another
/// process, a processor, the parent to end with).
///
/// Both ends of the cell process read this one type: ``CellRunner`` writes ``arguments`` after
/// the executable's `cell` subcommand, and ``CellChild`` reads them back with
/// ``init(arguments:)``. A new option is one property here, its argument in ``arguments`` and
/// its case in ``init(arguments:)``.
///
/// The arguments start with the request's ``protocolVersion``: a child that reads another
/// version refuses the request with ``CellChild/incompatibleExitStatus``, so that `ab` can say
/// the two builds cannot be paired, rather than guess from an error's wording.
package struct CellRequest: Sendable, Hashable {
  /// The version of the arguments this build writes and reads. Version 1 was the `cell`
  /// command's options without a version.
  package static let protocolVersion = 2
  /// The subcommand of an executable that runs one cell: the arguments follow it.
  package static let subcommand = "cell"
  /// The largest number of observers a cell may have.
  package static let sizeRange = 1...1 << 24
  /// The repetitions a cell may ask for.
  package static let repetitionRange = 1...10_000
  /// The longest budget a cell may have, in seconds (a day).
  package static let maximumBudget = 86_400.0

  /// The row's name: a backend's, or a reference loop's.
  package var backend: String
  /// What the cell measures.
  package var workload: Workload
  /// How the workload varies.
  package var pattern: WorkloadPattern = .single
  /// The number of observers, in ``sizeRange``.
  package var n: Int
  /// The path depth for `nested` (at least the pattern's minimum), 0 otherwise.
  package var depth = 0
  /// The threads of a contended workload, 1 otherwise; written only when more than 1, so that
  /// a one-thread request reads in builds that came before threads.
  package var threads = 1
  /// Measured repetitions after the warm-up, at most, in ``repetitionRange``.
  package var repetitions: Int
  /// Seconds after which no new repetition starts.
  package var budget: Double
  /// The seed of the random cancellation order.
  package var seed: UInt64 = 0x5EED
  /// The fraction of the full work every repetition does, in (0, 1]; `nil` calibrates it.
  package var scale: Double?
  /// What the process measures: with `instructions` it must run under callgrind.
  package var metric: Metric = .time
  /// Two named pipes to measure in turn with another process through (``TurnTaking``).
  package var turns: Turns?
  /// The index, from 0, of the processor the process runs on among those it may use.
  package var cpu: Int?
  /// The process that started the cell: the cell ends when it ends.
  package var parent: Int32?

  /// The named pipes of `--turns IN:OUT`.
  package struct Turns: Sendable, Hashable {
    /// The pipe each repetition's turn is taken from.
    package var input: String
    /// The pipe the turn is passed on to.
    package var output: String

    /// The pipes `input` and `output`.
    package init(input: String, output: String) {
      self.input = input
      self.output = output
    }
  }

  /// A request for what `cell` measures, without its allocator (the process's environment
  /// decides that).
  package init(
    _ cell: Cell, repetitions: Int, budget: Double, seed: UInt64 = 0x5EED, scale: Double? = nil,
    metric: Metric = .time
  ) {
    backend = cell.backend
    workload = cell.workload
    pattern = cell.pattern
    n = cell.n
    depth = cell.depth
    threads = cell.threads
    self.repetitions = repetitions
    self.budget = budget
    self.seed = seed
    self.scale = scale
    self.metric = metric
  }

  /// A request for the cell of `backend`'s `workload` with `n` observers (the other fields as
  /// their defaults), as a test or a tool asks it of ``CellExecution`` in its own process.
  ///
  /// - Complexity: O(1).
  package init(
    backend: String, workload: Workload, pattern: WorkloadPattern = .single, n: Int,
    depth: Int = 0, threads: Int = 1, repetitions: Int, budget: Double, seed: UInt64 = 0x5EED,
    scale: Double? = nil, metric: Metric = .time
  ) {
    self.init(
      Cell(
        allocator: .system, backend: backend, workload: workload, pattern: pattern, n: n,
        depth: depth, threads: threads),
      repetitions: repetitions, budget: budget, seed: seed, scale: scale, metric: metric)
  }

  /// The arguments that follow ``subcommand``: the protocol version first, then every option.
  ///
  /// The parent's process id is written in ten digits: an argument whose length followed the
  /// process id would move the cell's heap layout, and with it the instructions a table keyed
  /// by addresses spends, from run to run.
  package var arguments: [String] {
    var arguments = [
      Option.protocolVersion.rawValue, String(Self.protocolVersion),
      Option.backend.rawValue, backend, Option.workload.rawValue, workload.rawValue,
      Option.pattern.rawValue, pattern.rawValue, Option.n.rawValue, String(n),
      Option.depth.rawValue, String(depth), Option.repetitions.rawValue, String(repetitions),
      Option.budget.rawValue, String(budget), Option.seed.rawValue, String(seed),
    ]
    if threads != 1 { arguments += [Option.threads.rawValue, String(threads)] }
    if let parent { arguments += [Option.parent.rawValue, Self.fixedWidth(parent)] }
    if let cpu { arguments += [Option.cpu.rawValue, String(cpu)] }
    if let scale { arguments += [Option.scale.rawValue, String(scale)] }
    if let turns { arguments += [Option.turns.rawValue, turns.input + ":" + turns.output] }
    if metric != .time { arguments += [Option.metric.rawValue, metric.rawValue] }
    return arguments
  }

  /// `pid` in ten digits, zero-padded.
  static func fixedWidth(_ pid: Int32) -> String {
    let digits = String(pid)
    return String(repeating: "0", count: max(0, 10 - digits.count)) + digits
  }

  /// The options of a request.
  private enum Option: String, CaseIterable {
    case protocolVersion = "--protocol"
    case backend = "--backend"
    case workload = "--workload"
    case pattern = "--pattern"
    case n = "--n"
    case depth = "--depth"
    case threads = "--threads"
    case repetitions = "--repetitions"
    case budget = "--budget"
    case seed = "--seed"
    case scale = "--scale"
    case metric = "--metric"
    case turns = "--turns"
    case cpu = "--cpu"
    case parent = "--parent"
  }

  /// Reads ``arguments`` back, checking every value.
  ///
  /// - Throws: ``CellRequestError/incompatible(found:)`` when the arguments are of another
  ///   protocol version (or have none), before anything else is read;
  ///   ``CellRequestError/invalid(_:)`` naming the option at fault and what it accepts.
  /// - Complexity: O(*n*) for *n* arguments.
  package init(arguments: some Sequence<String>) throws(CellRequestError) {
    var values: [Option: String] = [:]
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      guard let option = Option(rawValue: argument) else {
        throw .invalid(
          "unknown argument '\(argument)'; accepted: "
            + Option.allCases.map(\.rawValue).joined(separator: ", "))
      }
      guard let value = iterator.next() else { throw .invalid("\(argument) needs a value") }
      guard values.updateValue(value, forKey: option) == nil else {
        throw .invalid("\(argument) is given twice")
      }
    }
    guard let version = values[.protocolVersion], Int(version) == Self.protocolVersion else {
      throw .incompatible(found: values[.protocolVersion])
    }
    func required(_ option: Option) throws(CellRequestError) -> String {
      guard let value = values[option] else { throw .invalid("\(option.rawValue) is required") }
      return value
    }
    func integer<I: FixedWidthInteger>(
      _ option: Option, in range: ClosedRange<I>, _ text: String
    ) throws(CellRequestError) -> I {
      guard let value = I(text), range.contains(value) else {
        throw .invalid(
          "\(option.rawValue) must be an integer from \(range.lowerBound) to"
            + " \(range.upperBound), got '\(text)'")
      }
      return value
    }
    func choice<C: CaseIterable & RawRepresentable<String>>(
      _ option: Option, _ text: String, _: C.Type
    ) throws(CellRequestError) -> C {
      guard let value = C(rawValue: text) else {
        throw .invalid(
          "\(option.rawValue) '\(text)' is not one of: "
            + C.allCases.map(\.rawValue).joined(separator: ", "))
      }
      return value
    }

    backend = try required(.backend)
    guard !backend.isEmpty else { throw .invalid("--backend needs a name") }
    workload = try choice(.workload, try required(.workload), Workload.self)
    n = try integer(.n, in: Self.sizeRange, try required(.n))
    repetitions = try integer(.repetitions, in: Self.repetitionRange, try required(.repetitions))
    let budgetText = try required(.budget)
    guard let budget = Double(budgetText), budget.isFinite, budget > 0,
      budget <= Self.maximumBudget
    else {
      throw .invalid(
        "--budget must be a number of seconds in (0, \(Int(Self.maximumBudget))], got"
          + " '\(budgetText)'")
    }
    self.budget = budget
    if let text = values[.pattern] { pattern = try choice(.pattern, text, WorkloadPattern.self) }
    if let text = values[.depth] {
      depth = try integer(.depth, in: 0...SweepDefaults.maximumDepth, text)
    }
    if workload.hasDepth && depth < pattern.minimumDepth {
      throw .invalid(
        "--depth \(depth) is too shallow for \(workload.rawValue) \(pattern.rawValue): at least"
          + " \(pattern.minimumDepth)")
    }
    if let text = values[.threads] {
      threads = try integer(.threads, in: 1...ReportColumn.maximumThreads, text)
      if threads != 1 && !workload.isContended {
        throw .invalid(
          "--threads \(threads) goes with a contended workload ("
            + Workload.allCases.filter(\.isContended).map(\.rawValue).joined(separator: ", ")
            + "); \(workload.rawValue) runs on one thread")
      }
    }
    if let text = values[.seed] { seed = try integer(.seed, in: 0...UInt64.max, text) }
    if let text = values[.scale] {
      guard let scale = Double(text), scale > 0, scale <= 1 else {
        throw .invalid("--scale must be a fraction in (0, 1], got '\(text)'")
      }
      self.scale = scale
    }
    if let text = values[.metric] { metric = try choice(.metric, text, Metric.self) }
    if let text = values[.turns] {
      let paths = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
      guard paths.count == 2, !paths[0].isEmpty, !paths[1].isEmpty else {
        throw .invalid("--turns must be two paths, IN:OUT, got '\(text)'")
      }
      turns = Turns(input: paths[0], output: paths[1])
    }
    if let text = values[.cpu] { cpu = try integer(.cpu, in: 0...Int(Int32.max), text) }
    if let text = values[.parent] { parent = try integer(.parent, in: 1...Int32.max, text) }
  }
}

/// Why a cell process refuses its request.
package enum CellRequestError: Error, Hashable, CustomStringConvertible {
  /// The arguments are of another protocol version, given here (`nil` when they have none):
  /// the request comes from another build.
  case incompatible(found: String?)
  /// An argument is missing, unknown or out of range; the text names it and what it accepts.
  case invalid(String)

  package var description: String {
    switch self {
    case .incompatible(let found):
      "this build reads cell requests of protocol \(CellRequest.protocolVersion), the request"
        + " is of " + (found.map { "protocol '\($0)'" } ?? "no protocol (an older build)")
    case .invalid(let text): text
    }
  }
}
