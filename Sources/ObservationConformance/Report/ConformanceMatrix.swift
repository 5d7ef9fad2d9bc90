import Foundation

/// Rules × backends, rendered as Markdown and as tidy CSV.
public struct ConformanceMatrix: Sendable {
  /// One report per backend, in column order.
  public let reports: [ConformanceReport]

  /// Creates a matrix from reports.
  public init(_ reports: [ConformanceReport]) { self.reports = reports }

  /// The CSV header; the schema is one row per rule and backend.
  public static let csvHeader =
    "suite_version,rule,group,level,title,traits,backend,outcome,details"

  /// The header of matrices written before the `traits` column, which ``rows(fromCSV:)`` still
  /// reads (their rows' ``Row/traits`` are `nil`).
  public static let csvHeaderWithoutTraits =
    "suite_version,rule,group,level,title,backend,outcome,details"

  /// Tidy CSV: one row per (rule, backend), RFC 4180 quoting.
  public var csv: String {
    var lines = [Self.csvHeader]
    for report in reports {
      for result in report.results {
        let rule = result.rule
        lines.append(
          [
            report.suiteVersion, rule.id.rawValue, rule.group.rawValue, rule.levelDescription,
            rule.title, Self.traitsField(rule.traits),
            report.backendName, result.outcome.kind.rawValue, result.outcome.details,
          ].map(Self.csvField).joined(separator: ","))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A Markdown table (rules as rows, backends as columns; failures, and crashes and timeouts
  /// of binding rules, in bold), then every failure, crash, timeout and probe with its details,
  /// then the declarations.
  public var markdown: String {
    guard let first = reports.first else { return "" }
    var out: [String] = []
    out.append(
      "| rule | level | " + reports.map { "`\($0.backendName)`" }.joined(separator: " | ") + " |")
    out.append("|---|---|" + String(repeating: "---|", count: reports.count))
    for (index, result) in first.results.enumerated() {
      let rule = result.rule
      let cells = reports.map { report -> String in
        let outcome = report.results[index].outcome
        return outcome.isFailure ? "**\(outcome.label)**" : outcome.label
      }
      out.append(
        "| \(rule.id) \(Self.markdownEscaped(rule.title)) | \(rule.levelDescription) | "
          + cells.joined(separator: " | ") + " |")
    }
    out.append("")
    out.append("## Failures and probes")
    out.append("")
    for report in reports {
      let notable = report.results.filter {
        [.failed, .crashed, .timedOut].contains($0.outcome.kind) || $0.outcome.kind.isProbe
      }
      guard !notable.isEmpty else { continue }
      out.append("### `\(report.backendName)`")
      out.append("")
      for result in notable {
        out.append(
          "- **\(result.rule.id)** \(result.outcome.label): \(Self.markdownEscaped(result.outcome.details))"
        )
      }
      out.append("")
    }
    out.append("## Declarations")
    out.append("")
    for report in reports {
      out.append("- `\(report.backendName)`: \(report.capabilities)")
    }
    out.append("")
    out.append("## Not applicable and untested, with reasons")
    out.append("")
    for (index, result) in first.results.enumerated() {
      let reasons = Set(
        reports.compactMap { report -> String? in
          let outcome = report.results[index].outcome
          switch outcome.kind {
          case .notApplicable, .untested: return outcome.details
          default: return nil
          }
        })
      for reason in reasons.sorted() {
        out.append("- **\(result.rule.id)**: \(Self.markdownEscaped(reason))")
      }
    }
    out.append("")
    out.append("## The rules, and why each exists")
    out.append("")
    for result in first.results {
      let rule = result.rule
      out.append(
        "- **\(rule.id)** (\(rule.levelDescription)) \(Self.markdownEscaped(rule.title)). "
          + Self.markdownEscaped(rule.intent))
    }
    return out.joined(separator: "\n") + "\n"
  }

  /// A rule's traits as the `traits` column writes them: their names in the order
  /// ``RuleTrait`` declares them, separated by spaces.
  static func traitsField(_ traits: Set<RuleTrait>) -> String {
    RuleTrait.allCases.filter(traits.contains).map(\.name).joined(separator: " ")
  }

  static func csvField(_ field: String) -> String {
    if field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
      return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    return field
  }

  static func markdownEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
  }
}

extension ConformanceMatrix {
  /// One row of the matrix's CSV: the outcome of one rule on one backend.
  public struct Row: Sendable, Hashable {
    /// The version of the suite that produced the row (`suite_version`).
    public let suiteVersion: String
    /// The rule's identifier, e.g. `CAN-05` (`rule`).
    public let rule: String
    /// The identifier's prefix, e.g. `CAN` (`group`).
    public let group: String
    /// The rule's level in the catalogue's wording, e.g. `CAP(replaysCurrentValue)` (`level`).
    public let level: String
    /// The rule in one line (`title`).
    public let title: String
    /// The rule's traits by their names (`traits`, space-separated: `concurrent stochastic`),
    /// so that a script asks what a rule is instead of reading its identifier; `nil` in a
    /// matrix written before the column.
    public let traits: Set<String>?
    /// The backend's name, e.g. `linked-list` (`backend`).
    public let backend: String
    /// The outcome's kind (`outcome`).
    public let outcome: RuleOutcome.Kind
    /// The outcome's prose: findings, the probe's observation or a reason (`details`).
    public let details: String
  }

  /// What is wrong with text given to ``rows(fromCSV:)``, and on which line.
  public struct CSVError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line the faulty record starts on, from 1.
    public let line: Int
    /// What is wrong.
    public let problem: String

    /// `line N: problem`.
    public var description: String { "line \(line): \(problem)" }
  }

  /// Reads CSV that ``csv`` wrote, such as the committed `Results/conformance.csv`, into its
  /// rows, in file order.
  ///
  /// A test can pin a backend's outcomes to a committed matrix this way instead of repeating
  /// them:
  ///
  /// ```swift
  /// let rows = try ConformanceMatrix.rows(fromCSV: String(contentsOf: url, encoding: .utf8))
  /// let pinned = rows.filter { $0.backend == "my-backend" }
  /// ```
  ///
  /// - Throws: ``CSVError`` if the header is not ``csvHeader`` (or the older
  ///   ``csvHeaderWithoutTraits``), a quoted field is never closed,
  ///   a record does not have one field per column, an outcome is not a ``RuleOutcome/Kind``,
  ///   or a rule and backend appear together twice.
  /// - Complexity: O(*n*) in the length of `text`.
  public static func rows(fromCSV text: String) throws -> [Row] {
    let records = try csvRecords(text)
    let header = records.first?.fields ?? []
    let columns = [csvHeader, csvHeaderWithoutTraits].map {
      $0.split(separator: ",").map(String.init)
    }.first { $0 == header }
    guard let columns else {
      throw CSVError(
        line: 1,
        problem: "the header is not '\(csvHeader)', found '\(header.joined(separator: ","))'")
    }
    // The fields by column name, whichever header the matrix has.
    let index = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
    var rows: [Row] = []
    var firstLine: [String: Int] = [:]
    for record in records.dropFirst() {
      let fields = record.fields
      guard fields.count == columns.count else {
        throw CSVError(
          line: record.line,
          problem: "expected \(columns.count) fields, found \(fields.count)")
      }
      func field(_ name: String) -> String { fields[index[name]!] }
      guard let outcome = RuleOutcome.Kind(rawValue: field("outcome")) else {
        throw CSVError(
          line: record.line,
          problem: "'\(field("outcome"))' is not an outcome ("
            + RuleOutcome.Kind.allCases.map(\.rawValue).joined(separator: ", ") + ")")
      }
      let traits = index["traits"].map { _ in
        Set(field("traits").split(separator: " ").map(String.init))
      }
      if let unknown = traits?.first(where: { name in
        !RuleTrait.allCases.contains { $0.name == name }
      }) {
        throw CSVError(
          line: record.line,
          problem: "'\(unknown)' is not a rule trait ("
            + RuleTrait.allCases.map(\.name).joined(separator: ", ") + ")")
      }
      let cell = field("rule") + " on " + field("backend")
      if let earlier = firstLine[cell] {
        throw CSVError(
          line: record.line, problem: "\(cell) appears twice (first on line \(earlier))")
      }
      firstLine[cell] = record.line
      rows.append(
        Row(
          suiteVersion: field("suite_version"), rule: field("rule"), group: field("group"),
          level: field("level"), title: field("title"), traits: traits,
          backend: field("backend"), outcome: outcome, details: field("details")))
    }
    return rows
  }

  /// Rows as the matrix's CSV, the way ``csv`` writes a matrix: ``rows(fromCSV:)`` reads the
  /// text back to the same rows. Rows read from a matrix without the `traits` column (all of
  /// whose ``Row/traits`` are `nil`) are written without it too.
  ///
  /// - Complexity: O(*n*) in the length of the text.
  public static func csv(of rows: [Row]) -> String {
    let withTraits = rows.contains { $0.traits != nil }
    var lines = [withTraits ? csvHeader : csvHeaderWithoutTraits]
    for row in rows {
      var fields = [row.suiteVersion, row.rule, row.group, row.level, row.title]
      if withTraits {
        // Declared traits in their declared order, then any other name as read, sorted.
        let traits = row.traits ?? []
        let declared = RuleTrait.allCases.map(\.name).filter(traits.contains)
        fields.append((declared + traits.subtracting(declared).sorted()).joined(separator: " "))
      }
      fields += [row.backend, row.outcome.rawValue, row.details]
      lines.append(fields.map(csvField).joined(separator: ","))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Splits RFC 4180 text into records of fields, each with the line it starts on.
  static func csvRecords(_ text: String) throws -> [(line: Int, fields: [String])] {
    var records: [(line: Int, fields: [String])] = []
    var fields: [String] = []
    var field = String.UnicodeScalarView()
    var line = 1
    var recordLine = 1
    var inQuotes = false
    var scalars = text.unicodeScalars.makeIterator()
    var pending: Unicode.Scalar?
    func next() -> Unicode.Scalar? {
      defer { pending = nil }
      return pending ?? scalars.next()
    }
    while let scalar = next() {
      if inQuotes {
        if scalar == "\"" {
          // A doubled quote is a quote; any other quote ends the quoted part.
          let following = next()
          if following == "\"" {
            field.append("\"")
          } else {
            inQuotes = false
            pending = following
          }
        } else {
          if scalar == "\n" { line += 1 }
          field.append(scalar)
        }
        continue
      }
      switch scalar {
      case "\"": inQuotes = true
      case ",":
        fields.append(String(field))
        field = String.UnicodeScalarView()
      case "\r": continue
      case "\n":
        fields.append(String(field))
        records.append((recordLine, fields))
        fields = []
        field = String.UnicodeScalarView()
        line += 1
        recordLine = line
      default: field.append(scalar)
      }
    }
    if inQuotes { throw CSVError(line: recordLine, problem: "a quoted field is never closed") }
    if !field.isEmpty || !fields.isEmpty {
      fields.append(String(field))
      records.append((recordLine, fields))
    }
    return records
  }
}
