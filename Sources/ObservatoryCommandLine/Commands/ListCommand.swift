import ArgumentParser

/// `observatory list`: what a sweep can measure, so that nobody reads the source to build a
/// `--backend` or `--workload` filter.
struct ListCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List the backends, workloads, patterns and default sizes a sweep can measure.",
    discussion: """
      Per backend: who wrote its behaviour (this package, or the library it wraps), the \
      timing and capabilities it declares, and the workloads the default sweep measures it \
      on. Then the reference rows, the workloads with their patterns, and the sizes and \
      depths of the default and the quick sweep. Every name is one that run --backend, \
      --workload and --sizes accept.

      --format json prints the same as one object whose keys are always present: backends, \
      references, workloads, default_sweep and package.
      """)

  @Option(name: .long, help: "text, or json (for scripts).")
  var format: ListFormat = .text

  /// How `list` prints.
  enum ListFormat: String, CaseIterable, ExpressibleByArgument {
    /// Sections for a person to read.
    case text
    /// One JSON object (`SweepCatalog.json()`).
    case json
  }

  func run(with tool: Tool) throws {
    let catalog = tool.catalog
    try StandardOutput.write(format == .json ? try catalog.json() : catalog.text)
  }
}
