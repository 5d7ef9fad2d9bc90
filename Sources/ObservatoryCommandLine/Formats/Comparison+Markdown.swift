import Foundation
import ObservationReports
import ObservationWorkloads

extension Comparison {
  /// Markdown for a pull-request comment: the summary, the cells that did not stay unchanged,
  /// then the unchanged ones folded away in a compact form.
  package func markdown(changesOnly: Bool = false) -> String {
    let allocators = Set(cells.map(\.base.cell.allocator))
    func name(_ result: CellResult) -> String {
      let cell = result.cell
      var parts = [cell.backend, cell.workload.rawValue]
      if cell.pattern != .single { parts.append(cell.pattern.rawValue) }
      parts.append("n=\(cell.n)")
      if cell.depth != 0 { parts.append("d=\(cell.depth)") }
      if cell.workload.isContended { parts.append("t=\(cell.threads)") }
      if allocators.count > 1 { parts.insert(cell.allocator.rawValue, at: 0) }
      return parts.joined(separator: " ")
    }
    // Verdicts worth reading come first, in full; the rest fold away.
    let folded: Set<Verdict> = [.unchanged, .notComparable]
    let changed = cells.filter { !folded.contains($0.verdict) }.sorted {
      Verdict.allCases.firstIndex(of: $0.verdict)! < Verdict.allCases.firstIndex(of: $1.verdict)!
    }
    var lines = [summary.replacingOccurrences(of: "\n", with: "\n\n"), ""]
    if !changed.isEmpty {
      lines += ["| cell | base | candidate | change | verdict |", "|---|---:|---:|---:|---|"]
      for cell in changed {
        let verdict =
          cell.verdict == .regression ? "**regression**" : cell.verdict.rawValue
        lines.append(
          "| \(name(cell.base)) | \(describe(cell.base)) | \(describe(cell.candidate))"
            + " | \(change(cell)) | \(verdict) |")
      }
    }
    if !changesOnly {
      let notComparable = cells.filter { $0.verdict == .notComparable }
      if !notComparable.isEmpty {
        lines += [
          "", "<details><summary>\(notComparable.count) cells not measured in the base</summary>",
          "", "| cell | base | candidate |", "|---|---|---:|",
        ]
        for cell in notComparable {
          lines.append(
            "| \(name(cell.base)) | \(cell.base.status.name) | \(describe(cell.candidate)) |")
        }
        lines += ["", "</details>"]
      }
      let unchanged = cells.filter { $0.verdict == .unchanged }
      if !unchanged.isEmpty {
        lines += [
          "", "<details><summary>\(unchanged.count) unchanged cells</summary>", "",
          "| cell | base | change |", "|---|---:|---:|",
        ]
        for cell in unchanged {
          lines.append("| \(name(cell.base)) | \(describe(cell.base)) | \(change(cell)) |")
        }
        lines += ["", "</details>"]
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
