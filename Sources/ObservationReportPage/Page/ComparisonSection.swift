import Foundation
import ObservationReports
import ObservationWorkloads

/// The page's comparison with a baseline: ``Comparison``'s own verdicts per cell, regressions
/// first, with its summary; unchanged and incomparable cells folded away.
enum ComparisonSection {
  /// The order verdicts are listed in: what needs attention first.
  static let order: [Comparison.Verdict] = [
    .regression, .capped, .inconclusive, .improvement, .unchanged, .notComparable,
  ]

  /// The `<section>` of `comparison`, made from the baseline at `baseline`.
  ///
  /// - Complexity: O(*c* log *c*) for *c* cells compared.
  static func render(_ comparison: Comparison, baseline: String) -> String {
    let sorted = sortedEntries(comparison)
    let folded: Set<Comparison.Verdict> = [.unchanged, .notComparable]
    let shown = sorted.filter { !folded.contains($0.verdict) }
    let hidden = sorted.filter { folded.contains($0.verdict) }
    var html = [
      "<section id=\"comparison\" class=\"comparison\">",
      "<h2>Against the baseline</h2>",
      "<p class=\"source\">Baseline: <code>\(HTMLText.escaped(baseline))</code>"
        + environmentSummary(comparison.cells.first?.base) + "</p>",
    ]
    html.append(verdictCounts(comparison))
    for paragraph in comparison.summary.split(separator: "\n") {
      html.append("<p>\(HTMLText.escaped(String(paragraph)))</p>")
    }
    if shown.isEmpty {
      html.append("<p>Every cell in both reports is unchanged or was not measured in the base.</p>")
    } else {
      html.append(table(shown, className: "changes"))
    }
    if !hidden.isEmpty {
      html.append(
        "<details class=\"folded\"><summary>\(hidden.count) cells unchanged or not measured in"
          + " the base</summary>" + table(hidden, className: "changes folded") + "</details>")
    }
    html.append("</section>")
    return html.joined(separator: "\n")
  }

  /// The cells, in ``order`` of their verdicts, and within one verdict the largest change
  /// first.
  static func sortedEntries(_ comparison: Comparison) -> [Comparison.Entry] {
    comparison.cells.enumerated().sorted { left, right in
      let leftRank = order.firstIndex(of: left.element.verdict) ?? order.count
      let rightRank = order.firstIndex(of: right.element.verdict) ?? order.count
      if leftRank != rightRank { return leftRank < rightRank }
      let leftChange = left.element.ratio.map { abs($0 - 1) } ?? -1
      let rightChange = right.element.ratio.map { abs($0 - 1) } ?? -1
      if leftChange != rightChange { return leftChange > rightChange }
      return left.offset < right.offset
    }.map(\.element)
  }

  private static func environmentSummary(_ result: CellResult?) -> String {
    guard let environment = result?.environment else { return "" }
    return ", commit <code>\(HTMLText.escaped(environment.commit))</code>, measured "
      + HTMLText.escaped(environment.date) + " on " + HTMLText.escaped(environment.host)
  }

  private static func verdictCounts(_ comparison: Comparison) -> String {
    let counts = Dictionary(grouping: comparison.cells, by: \.verdict).mapValues(\.count)
    let items = order.compactMap { verdict in
      counts[verdict].map {
        "<li class=\"verdict \(className(verdict))\">\($0) \(verdict.rawValue)</li>"
      }
    }
    return "<ul class=\"verdict-counts\">" + items.joined() + "</ul>"
  }

  /// The verdict as a CSS class: `regression`, `not-comparable`, `capped-in-candidate`.
  static func className(_ verdict: Comparison.Verdict) -> String {
    verdict.rawValue.replacingOccurrences(of: " ", with: "-")
  }

  private static func table(_ entries: [Comparison.Entry], className tableClass: String) -> String {
    let showsAllocator = Set(entries.map(\.base.cell.allocator)).count > 1
    let rows = entries.map { entry -> String in
      let cell = entry.base.cell
      var name = [cell.backend, cell.workload.rawValue]
      if cell.pattern != .single { name.append(cell.pattern.rawValue) }
      if cell.workload.hasDepth || cell.depth != 0 { name.append("depth \(cell.depth)") }
      if cell.workload.isContended {
        name.append(cell.threads == 1 ? "1 thread" : "\(cell.threads) threads")
      }
      if showsAllocator { name.append(cell.allocator.rawValue) }
      // As `compare` prints it.
      let change = entry.ratio.map { readableChange(ofRatio: $0) }
      let verdict =
        entry.verdict.rawValue + (entry.reason.isEmpty ? "" : ": " + entry.reason)
      return "<tr class=\"verdict \(className(entry.verdict))\" data-cell=\""
        + HTMLText.escaped(entry.key) + "\"><th scope=\"row\">"
        + HTMLText.escaped(name.joined(separator: " · ")) + "</th><td class=\"n\">"
        + NumberText.grouped(cell.n) + "</td><td>" + describe(entry.base) + "</td><td>"
        + describe(entry.candidate) + "</td><td class=\"change\">" + (change ?? "—")
        + "</td><td>" + HTMLText.escaped(verdict) + "</td></tr>"
    }
    return "<div class=\"table-wrap\"><table class=\"\(tableClass)\"><thead><tr>"
      + "<th scope=\"col\">cell</th><th scope=\"col\">n</th><th scope=\"col\">base</th>"
      + "<th scope=\"col\">this report</th><th scope=\"col\">change</th>"
      + "<th scope=\"col\">verdict</th></tr></thead><tbody>\n" + rows.joined(separator: "\n")
      + "\n</tbody></table></div>"
  }

  private static func describe(_ result: CellResult) -> String {
    guard Comparison.measured(result) else { return HTMLText.escaped(result.status.name) }
    return HTMLText.escaped(Comparison.comparedText(result))
  }
}
