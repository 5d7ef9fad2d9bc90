import ObservationWorkloads

/// One column of a report: its name, what it may hold, the schema that added it, and where its
/// value lives in a ``CellResult``.
///
/// ``all`` is the report's schema. The CSV header, the CSV and JSON encodings, the reader's
/// checks and the decoding into ``CellResult`` all derive from it, so a new column is one entry
/// there and the two serializations cannot disagree.
package struct ReportColumn: Sendable {
  /// What a column's text may be.
  package enum Kind: Sendable {
    /// Any text.
    case text
    /// One of these words.
    case oneOf([String])
    /// A whole number in the range, in decimal digits only: `n` and `depth` name a cell, and
    /// `+16`, `016` or `1.6e1` would name another one, slipping past the check that no cell
    /// appears twice.
    case integer(ClosedRange<Int>)
    /// A finite decimal number above zero: a cost of zero or less is not a measurement.
    case positive
    /// A finite decimal number, zero or more.
    case nonNegative
  }

  /// The name in the CSV header and the JSON object.
  package let name: String
  /// What the column's text may be.
  package let kind: Kind
  /// The first schema version with this column.
  package let since: Int
  /// Whether a row must have a value.
  package let isRequired: Bool
  /// The result's value for this column; `nil` leaves the field empty.
  let value: @Sendable (CellResult) -> CellResult.Value?
  /// Stores a checked value into a result being read.
  let store: @Sendable (inout Decoding, CellResult.Value) -> Void

  private init(
    _ name: String, _ kind: Kind, since: Int = 1, required: Bool = false,
    value: @escaping @Sendable (CellResult) -> CellResult.Value?,
    store: @escaping @Sendable (inout Decoding, CellResult.Value) -> Void
  ) {
    self.name = name
    self.kind = kind
    self.since = since
    self.isRequired = required
    self.value = value
    self.store = store
  }

  /// The largest whole number a report's integer columns hold.
  static let largestInteger = 1_000_000_000_000_000

  /// The most threads a cell may have.
  package static let maximumThreads = 1024

  /// The columns of the report this tool writes, in order.
  package static let all: [ReportColumn] = [
    text("schema", \.schema),
    text("run_id", \.environment.runID),
    text("commit", \.environment.commit),
    text("date", \.environment.date),
    text("host", \.environment.host, required: false),
    text("cpu", \.environment.cpu, required: false),
    integer("cores", \.environment.cores, 1...largestInteger, required: false),
    text("os", \.environment.os, required: false),
    text("swift", \.environment.swift, required: false),
    text("build", \.environment.build, required: false),
    ReportColumn(
      "sweep", .oneOf(SweepKind.allCases.map(\.rawValue)), since: 5, required: false,
      value: { $0.environment.sweep.map { .text($0.rawValue) } },
      store: { decoding, value in
        decoding.result.environment.sweep = SweepKind(rawValue: value.asText)
      }),
    word("allocator", \.cell.allocator),
    ReportColumn(
      "allocator_version", .text, since: 5,
      value: { $0.allocatorVersion.map { .text($0) } },
      store: { $0.result.allocatorVersion = $1.asText }),
    text("backend", \.cell.backend),
    ReportColumn(
      "row_kind", .oneOf(RowKind.allCases.map(\.rawValue)), since: 4, required: true,
      value: { .text($0.rowKind.rawValue) },
      store: { decoding, value in decoding.rowKind = RowKind(rawValue: value.asText) }),
    word("workload", \.cell.workload),
    word("pattern", \.cell.pattern),
    integer("n", \.cell.n, 1...largestInteger, required: true),
    integer("depth", \.cell.depth, 0...largestInteger, required: false),
    integer("threads", \.cell.threads, 1...maximumThreads, required: false, since: 3),
    ReportColumn(
      "unit", .text, required: true, value: { .text($0.unit) },
      store: { $0.unit = $1.asText }),
    word("metric", \.metric, since: 2),
    ReportColumn(
      "repetitions", .integer(1...largestInteger), value: { $0.repetitions.map { .integer($0) } },
      store: { $0.result.repetitions = $1.asInteger }),
    quantile("ns_min", 0, \.min),
    quantile("ns_median", 1, \.median),
    quantile("ns_p90", 2, \.p90),
    quantile("ns_max", 3, \.max),
    number("instructions_per_op", \.instructionsPerOperation, .positive, since: 2),
    number("instructions_spread", \.instructionsSpread, .nonNegative, since: 2),
    number("d1_misses_per_op", \.d1MissesPerOperation, .nonNegative, since: 2),
    number("ll_misses_per_op", \.llMissesPerOperation, .nonNegative, since: 2),
    number("ratio_to_limit", \.ratioToLimit, .nonNegative),
    number("allocs_per_op", \.allocationsPerOperation, .nonNegative),
    number("bytes_per_op", \.bytesPerOperation, .nonNegative),
    number("retained_bytes_per_observer", \.retainedBytesPerObserver, .nonNegative),
    number("latency_ns_median", \.latencyMedian, .positive, since: 3),
    number("latency_ns_p99", \.latencyP99, .positive, since: 3),
    ReportColumn(
      "status", .oneOf(CellResult.Status.names), required: true,
      value: { .text($0.status.name) }, store: { $0.statusName = $1.asText }),
    ReportColumn(
      "note", .text, value: { $0.status.reason.isEmpty ? nil : .text($0.status.reason) },
      store: { $0.note = $1.asText }),
  ]

  /// The columns of schema `version`'s header, or `nil` for a version this tool cannot read.
  package static func columns(ofVersion version: String) -> [ReportColumn]? {
    guard let number = Int(version), readableVersions.contains(version) else { return nil }
    return all.filter { $0.since <= number }
  }

  /// The versions this tool reads.
  package static let readableVersions = ["1", "2", "3", "4", "5"]

  /// The header line of schema `version`.
  package static func header(ofVersion version: String = ReportSchema.version) -> String {
    (columns(ofVersion: version) ?? all).map(\.name).joined(separator: ",")
  }

  // MARK: Reading

  /// A result being read, column by column, with what only several columns decide together.
  struct Decoding {
    /// The result so far; every required column replaces its placeholder.
    var result = CellResult(
      cell: Cell(allocator: .system, backend: "", workload: .notify, n: 1),
      environment: RunEnvironment(
        runID: "", commit: "", date: "", host: "", cpu: "", cores: 0, os: "", swift: "",
        build: ""),
      metric: .time, status: .ok, schema: "")
    /// `ns_min`, `ns_median`, `ns_p90` and `ns_max`, as read.
    var quantiles: [Double?] = [nil, nil, nil, nil]
    /// The `status` column.
    var statusName = ""
    /// The `note` column.
    var note = ""
    /// The `row_kind` column, in a report of schema 4 on.
    var rowKind: RowKind?
    /// The `unit` column, which must be what the workload counts.
    var unit = ""

    /// The finished result, or the problem that several columns make together.
    func finished() throws(ColumnProblem) -> CellResult {
      var result = result
      let present = quantiles.compactMap { $0 }
      if present.count == 4 {
        result.nanoseconds = CellResult.Quantiles(
          min: present[0], median: present[1], p90: present[2], max: present[3])
      } else if !present.isEmpty {
        throw ColumnProblem(
          "columns 'ns_min', 'ns_median', 'ns_p90' and 'ns_max' go together; found"
            + " \(present.count) of them")
      }
      if statusName == CellResult.Status.Kind.ok.rawValue && !note.isEmpty {
        throw ColumnProblem("status 'ok' takes no note; found '\(note.prefix(40))'")
      }
      guard let status = CellResult.Status(name: statusName, reason: note) else {
        throw ColumnProblem("status '\(statusName)' is not a report's status")
      }
      result.status = status
      if status.isMeasured && result.cost == nil {
        let column = result.metric == .instructions ? "instructions_per_op" : "ns_median"
        throw ColumnProblem("status '\(statusName)' but column '\(column)' is empty")
      }
      guard unit == result.unit else {
        throw ColumnProblem(
          "unit '\(unit.prefix(40))' is not what \(result.cell.workload.rawValue) counts"
            + " ('\(result.unit)')")
      }
      // Before schema 4 a row said what it measures only by its name.
      result.rowKind = rowKind ?? RowKind(ofRowNamed: result.cell.backend)
      return result
    }
  }

  /// What is wrong with a field or a row, in words that name the column.
  struct ColumnProblem: Error {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// The column's value in `text`, checked against its kind.
  ///
  /// - Throws: ``ColumnProblem`` saying what the column accepts.
  func parse(_ text: String) throws(ColumnProblem) -> CellResult.Value {
    switch kind {
    case .text: return .text(text)
    case .oneOf(let words):
      guard words.contains(text) else {
        throw ColumnProblem(
          "\(name) '\(text.prefix(40))' is not one of \(words.joined(separator: ", "))")
      }
      return .text(text)
    case .integer(let range):
      guard let value = Self.integer(text, in: range) else {
        throw ColumnProblem(
          "column '\(name)' should be a whole number from \(range.lowerBound) to"
            + " \(range.upperBound) in decimal digits only (no sign, point, exponent or leading"
            + " zero), found '\(text.prefix(40))'")
      }
      return .integer(value)
    case .positive, .nonNegative:
      guard let value = Self.decimal(text) else {
        throw ColumnProblem(
          "column '\(name)' should be a finite decimal number, found '\(text.prefix(40))'")
      }
      if case .positive = kind, !(value > 0) {
        throw ColumnProblem("column '\(name)' should be above zero, found '\(text)'")
      }
      if value < 0 {
        throw ColumnProblem("column '\(name)' should not be negative, found '\(text)'")
      }
      return .number(value)
    }
  }

  /// Reads one row of schema `columns` into a result.
  ///
  /// - Throws: ``ColumnProblem`` for the first field that breaks its column's rule, or for
  ///   columns that disagree.
  /// - Complexity: O(*c*) for *c* columns.
  static func decode(
    _ fields: [String], columns: [ReportColumn]
  ) throws(ColumnProblem) -> CellResult {
    var decoding = Decoding()
    for (column, text) in zip(columns, fields) {
      if text.isEmpty {
        if column.isRequired { throw ColumnProblem("column '\(column.name)' is empty") }
        continue
      }
      column.store(&decoding, try column.parse(text))
    }
    return try decoding.finished()
  }

  /// A whole number in `range` written as `run` writes one: decimal digits, no sign, no
  /// leading zero; `nil` for anything else.
  static func integer(_ text: String, in range: ClosedRange<Int>) -> Int? {
    guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ (48...57).contains($0) }),
      text == "0" || !text.hasPrefix("0"), let value = Int(text), range.contains(value)
    else { return nil }
    return value
  }

  /// A finite number written in decimal (`12`, `0.5`, `1e3`); `nil` for anything else,
  /// including `nan`, `inf`, hexadecimal and numbers too large for a `Double`.
  static func decimal(_ text: String) -> Double? {
    guard !text.isEmpty,
      text.unicodeScalars.allSatisfy({ "0123456789.eE+-".unicodeScalars.contains($0) }),
      let value = Double(text), value.isFinite
    else { return nil }
    return value
  }

  // MARK: Column constructors

  private static func text(
    _ name: String, _ path: WritableKeyPath<CellResult, String> & Sendable, required: Bool = true
  ) -> ReportColumn {
    ReportColumn(
      name, .text, required: required, value: { .text($0[keyPath: path]) },
      store: { $0.result[keyPath: path] = $1.asText })
  }

  private static func integer(
    _ name: String, _ path: WritableKeyPath<CellResult, Int> & Sendable, _ range: ClosedRange<Int>,
    required: Bool, since: Int = 1
  ) -> ReportColumn {
    ReportColumn(
      name, .integer(range), since: since, required: required,
      // An optional column left empty keeps its placeholder, which may lie outside `range`
      // (no `cores` reads as 0): it is written back empty, so the text reads again.
      value: { result in
        let value = result[keyPath: path]
        return required || range.contains(value) ? .integer(value) : nil
      },
      store: { $0.result[keyPath: path] = $1.asInteger ?? 0 })
  }

  private static func word<Word: RawRepresentable & CaseIterable & Sendable>(
    _ name: String, _ path: WritableKeyPath<CellResult, Word> & Sendable, since: Int = 1
  ) -> ReportColumn where Word.RawValue == String {
    ReportColumn(
      name, .oneOf(Word.allCases.map(\.rawValue)), since: since, required: true,
      value: { .text($0[keyPath: path].rawValue) },
      store: { decoding, value in
        if let word = Word(rawValue: value.asText) { decoding.result[keyPath: path] = word }
      })
  }

  private static func number(
    _ name: String, _ path: WritableKeyPath<CellResult, Double?> & Sendable, _ kind: Kind,
    since: Int = 1
  ) -> ReportColumn {
    ReportColumn(
      name, kind, since: since, value: { $0[keyPath: path].map { .number($0) } },
      store: { $0.result[keyPath: path] = $1.asNumber })
  }

  private static func quantile(
    _ name: String, _ index: Int, _ path: KeyPath<CellResult.Quantiles, Double> & Sendable
  ) -> ReportColumn {
    ReportColumn(
      name, .positive, value: { $0.nanoseconds.map { .number($0[keyPath: path]) } },
      store: { $0.quantiles[index] = $1.asNumber })
  }
}

extension CellResult.Value {
  /// The value as text (a number as the CSV writes it).
  var asText: String { csvText }

  /// The whole number, or `nil` for text or a fraction.
  var asInteger: Int? {
    switch self {
    case .integer(let value): return value
    case .number(let value): return Int(exactly: value)
    case .text(let text): return Int(text)
    }
  }

  /// The number, or `nil` for text that is none.
  var asNumber: Double? {
    switch self {
    case .integer(let value): return Double(value)
    case .number(let value): return value
    case .text(let text): return Double(text)
    }
  }
}
