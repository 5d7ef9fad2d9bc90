import ArgumentParser
import Foundation

/// `observatory table REPORT`: the README's headline table, from a report.
struct TableCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "table",
    abstract: "Print a Markdown table of notify / subscribe / cancel per backend at some sizes.")

  @Argument(help: "A report (CSV).") var report: String
  @Option(name: .long, help: "Observer counts (comma-separated).") var sizes: String =
    "1024,1048576"
  @Option(
    name: .long, help: "Allocator whose rows to show; default: the report's, if it has one.")
  var allocator: String?

  func run() throws {
    let rows: [ReportRow]
    do { rows = try ReportReader.read(report) } catch let error as ReportError {
      throw ValidationError(error.description)
    }
    let counts = try sizes.split(separator: ",").map { part -> String in
      guard let value = Int(part), value > 0 else {
        throw ValidationError(
          "bad size '\(part)' in --sizes; accepted: comma-separated positive integers")
      }
      return String(value)
    }
    let allocators = Array(Set(rows.map { $0["allocator"] })).sorted()
    guard let chosen = allocator ?? (allocators.count == 1 ? allocators[0] : nil) else {
      throw ValidationError(
        "\(report) holds rows of several allocators (\(allocators.joined(separator: ", ")));"
          + " choose one with --allocator")
    }
    guard allocators.contains(chosen) else {
      throw ValidationError(
        "\(report) has no row of allocator '\(chosen)'; it has: \(allocators.joined(separator: ", "))"
      )
    }
    try StandardOutput.write(
      Self.markdown(rows.filter { $0["allocator"] == chosen }, sizes: counts))
  }

  static func markdown(_ rows: [ReportRow], sizes: [String]) -> String {
    var backends: [String] = []
    for row in rows where !backends.contains(row["backend"]) { backends.append(row["backend"]) }
    func cell(_ backend: String, _ workload: String, _ pattern: String, _ n: String) -> String {
      guard
        let row = rows.first(where: {
          $0["backend"] == backend && $0["workload"] == workload && $0["pattern"] == pattern
            && $0["n"] == n
        })
      else { return "—" }
      guard row.cost != nil else { return row["status"] }
      var text = row.costText
      if !row["ratio_to_limit"].isEmpty { text += " (×" + row["ratio_to_limit"] + ")" }
      return text
    }
    var header = "| backend |"
    var rule = "|---|"
    for n in sizes {
      header += " notify n=\(n) | subscribe n=\(n) | cancel (random) n=\(n) |"
      rule += "---:|---:|---:|"
    }
    var lines = [header, rule]
    for backend in backends {
      let cells = sizes.flatMap { n in
        [
          cell(backend, "notify", "-", n), cell(backend, "subscribe", "-", n),
          cell(backend, "cancel", "random", n),
        ]
      }
      if cells.allSatisfy({ $0 == "—" }) { continue }
      var line = "| `\(backend)` |"
      for n in sizes {
        line +=
          " \(cell(backend, "notify", "-", n)) | \(cell(backend, "subscribe", "-", n)) |"
          + " \(cell(backend, "cancel", "random", n)) |"
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
