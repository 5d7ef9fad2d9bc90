import ArgumentParser

/// How `compare` and `ab` print their verdicts: `--format` and `--changes-only`.
struct ComparisonOutputOptions: ParsableArguments {
  @Option(name: .long, help: "text, markdown or json.") var format: ComparisonFormat = .text

  @Flag(name: .long, help: "Show only the cells whose verdict is not `unchanged`.")
  var changesOnly = false

  /// The verdicts in the chosen format, given each format's rendering over `changesOnly`.
  func render(
    text: (Bool) -> String, markdown: (Bool) -> String, json: (Bool) throws -> String
  ) rethrows -> String {
    switch format {
    case .text: return text(changesOnly)
    case .markdown: return markdown(changesOnly)
    case .json: return try json(changesOnly)
    }
  }
}

/// How `compare` and `ab` print their verdicts.
enum ComparisonFormat: String, CaseIterable, ExpressibleByArgument {
  /// A plain-text table.
  case text
  /// A Markdown table, for a pull-request comment.
  case markdown
  /// JSON, for CI tools: every cell with both sides and its verdict.
  case json
}
