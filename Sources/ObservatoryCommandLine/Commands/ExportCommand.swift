import ArgumentParser
import Foundation
import ObservationConformance
import ObservationReports

/// `observatory export REPORT --format bencher|github-action-benchmark [--output FILE]`: a
/// report as the JSON a continuous-benchmarking service keeps a history of.
struct ExportCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write a report as JSON for Bencher or github-action-benchmark.",
    discussion: """
      One benchmark per measured cell, named backend/workload/pattern/n=N, then /depth=D \
      (nested), /threads=T (contended) and /allocator=A: the same name in every report, so \
      that the service draws each cell's history. Its value is the cell's median cost per \
      operation: nanoseconds in a time report, instructions in an instruction-count report. \
      Reference rows (reference-...) are exported too, to normalize by. Cells not measured \
      (capped, invalid, failed, n/a) are left out, counted on standard error.

      bencher: Bencher Metric Format, for `bencher run --adapter json --file FILE`. Measures: \
      latency (nanoseconds; lower_value the fastest repetition, upper_value the 90th \
      percentile) or instructions (± the spread of the processes' counts), and allocations \
      and allocated-bytes per operation where jemalloc counted them. The format has no room \
      for the machine: name the testbed after it (bencher run --testbed); a suggested name, \
      from the report's host, processor, cores and build, is printed on standard error.

      github-action-benchmark: the array `tool: 'customSmallerIsBetter'` reads: name, unit \
      (ns or instructions), value, range (± the same spread) and extra, which names the \
      machine, build, allocator, commit and date, and the ratio to the limit row.
      """)

  @Argument(help: "A report (CSV), as `run` writes it.") var report: String
  @Option(name: .long, help: "The service whose format to write.") var format: ExportFormat
  @Option(name: .long, help: "Where to write the JSON; default (or '-'): standard output.")
  var output: String?
  @Flag(name: .long, help: "Replace the file --output names if it exists (a regular file only).")
  var force = false

  /// The service an export is for.
  enum ExportFormat: String, CaseIterable, ExpressibleByArgument {
    /// Bencher Metric Format (``BencherMetricFormat``).
    case bencher
    /// github-action-benchmark's `customSmallerIsBetter` input
    /// (``GitHubActionBenchmarkFormat``).
    case githubActionBenchmark = "github-action-benchmark"
  }

  func run(with tool: Tool) throws {
    let file = output.flatMap { $0 == "-" ? nil : $0 }.map {
      OutputFile($0, replacing: force).readingFrom([report])
    }
    try file?.check()
    let (json, notes) = try export()
    if let file { try file.write(json) } else { try StandardOutput.write(json) }
    for note in notes {
      StandardOutput.writeError(BoundedLine.shortened("\(tool.name) export: \(note)") + "\n")
    }
  }

  /// The report's JSON in the format asked for, and what to say on standard error: the cells
  /// left out, and for Bencher the testbed to name.
  ///
  /// - Throws: a one-line `ValidationError` for a conformance matrix, a report that cannot be
  ///   read, or one without a measured cell (an export with no benchmark is no history).
  /// - Complexity: O(*r* log *r*) for *r* results.
  func export() throws -> (json: String, notes: [String]) {
    if ConformanceMatrixCSV.isMatrix(atPath: report) {
      throw ValidationError(
        "\(report): a conformance matrix (header '\(ConformanceMatrixCSV.header)'), not a report"
          + " of costs; export reads the reports run writes (header 'schema,run_id,...')")
    }
    let results: [CellResult]
    do { results = try Report.read(report).results } catch let error as ReportError {
      throw ValidationError(error.description)
    }
    let selection = ExportSelection(results)
    guard !selection.exported.isEmpty else {
      throw ValidationError(
        "\(report): no measured cell to export; \(selection.leftOutSummary ?? "")")
    }
    var notes = [selection.leftOutSummary].compactMap { $0 }
    let json: String
    switch format {
    case .bencher:
      json = try BencherMetricFormat.json(results)
      var testbeds: [String] = []
      for result in selection.exported {
        let testbed = BencherMetricFormat.suggestedTestbed(for: result.environment)
        if !testbeds.contains(testbed) { testbeds.append(testbed) }
      }
      notes.append(
        testbeds.count == 1
          ? "the machine and build are the testbed's to name: bencher run --testbed \(testbeds[0])"
          : "the report holds \(testbeds.count) machines or builds (\(testbeds.joined(separator: ", ")));"
            + " a testbed is one: export each machine's report on its own")
    case .githubActionBenchmark:
      json = try GitHubActionBenchmarkFormat.json(results)
    }
    return (json, notes)
  }
}
