import ArgumentParser

/// How `compare` and `ab` print their verdicts: `--format` and `--changes-only`.
struct ComparisonOutputOptions: ParsableArguments {
  @Option(name: .long, help: "text or markdown.") var format: ComparisonFormat = .text

  @Flag(name: .long, help: "Show only the cells whose verdict is not `unchanged`.")
  var changesOnly = false

  /// The verdicts in the chosen format, given each format's rendering over `changesOnly`.
  func render(text: (Bool) -> String, markdown: (Bool) -> String) -> String {
    switch format {
    case .text: return text(changesOnly)
    case .markdown: return markdown(changesOnly)
    }
  }
}

/// How `compare` and `ab` print their verdicts.
enum ComparisonFormat: String, CaseIterable, ExpressibleByArgument {
  case text
  case markdown
}
