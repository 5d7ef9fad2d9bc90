import ObservationReports

/// The page's conformance matrix: a grid of rules × backends, each cell coloured by its
/// outcome and expandable to its details.
enum ConformanceSection {
  /// The order, short label and CSS class of each outcome.
  static let outcomes: [(kind: ConformanceOutcome, label: String, className: String)] = [
    (.passed, "pass", "pass"), (.failed, "FAIL", "fail"),
    (.probeObserved, "probe: seen", "probe-observed"),
    (.probeNotObserved, "probe: not seen", "probe-not-observed"),
    (.probeNotSeenViolated, "probe: not seen violated", "probe-not-seen-violated"),
    (.notApplicable, "n/a", "not-applicable"), (.untested, "untested", "untested"),
    (.crashed, "crashed", "crashed"), (.timedOut, "timed out", "timed-out"),
  ]

  /// The rules of `rows` in the order they first appear, and likewise the backends.
  ///
  /// - Complexity: O(*r*) for *r* rows.
  static func axes(
    _ rows: [ConformanceMatrixRow]
  ) -> (rules: [ConformanceMatrixRow], backends: [String]) {
    var rules: [ConformanceMatrixRow] = []
    var seenRules: Set<String> = []
    var backends: [String] = []
    var seenBackends: Set<String> = []
    for row in rows {
      if seenRules.insert(row.rule).inserted { rules.append(row) }
      if seenBackends.insert(row.backend).inserted { backends.append(row.backend) }
    }
    return (rules, backends)
  }

  /// The `<section>` of the matrix `rows`, read from `source`.
  ///
  /// - Complexity: O(*r* × *b*) for *r* rules and *b* backends.
  static func render(_ rows: [ConformanceMatrixRow], source: String) -> String {
    let (rules, backends) = axes(rows)
    var cells: [String: ConformanceMatrixRow] = [:]
    for row in rows { cells[row.rule + "\u{0}" + row.backend] = row }
    let counts = Dictionary(grouping: rows, by: \.outcome).mapValues(\.count)
    let versions = Set(rows.map(\.suiteVersion)).sorted()
    var html = [
      "<section id=\"conformance\" class=\"conformance\">",
      "<h2>Conformance</h2>",
      "<p class=\"source\">Read from <code>\(HTMLText.escaped(source))</code>: conformance suite "
        + HTMLText.escaped(versions.joined(separator: ", ")) + ", \(rules.count) rules on"
        + " \(backends.count) backends. Open a cell for its details.</p>",
      "<ul class=\"outcome-legend\">"
        + outcomes.map { outcome in
          "<li class=\"outcome \(outcome.className)\">\(HTMLText.escaped(outcome.label))"
            + " <span class=\"count\">\(counts[outcome.kind] ?? 0)</span></li>"
        }.joined() + "</ul>",
      "<p class=\"matrix-tools\" hidden><button type=\"button\" data-details=\"open\">Open every"
        + " cell</button> <button type=\"button\" data-details=\"close\">Close every cell</button>"
        + "</p>",
      "<div class=\"table-wrap matrix-wrap\"><table class=\"matrix\" data-rules=\"\(rules.count)\""
        + " data-backends=\"\(backends.count)\"><thead><tr><th scope=\"col\">rule</th>"
        + backends.map {
          "<th scope=\"col\" class=\"backend\"><span>\(HTMLText.escaped($0))</span></th>"
        }.joined() + "</tr></thead><tbody>",
    ]
    for rule in rules {
      var line =
        "<tr data-rule=\"\(HTMLText.escaped(rule.rule))\"><th scope=\"row\"><span class=\"id\">"
        + HTMLText.escaped(rule.rule) + "</span> <span class=\"title\">"
        + HTMLText.escaped(rule.title) + "</span> <span class=\"level\">"
        + HTMLText.escaped(rule.level) + "</span></th>"
      for backend in backends {
        line += cell(cells[rule.rule + "\u{0}" + backend], rule: rule.rule, backend: backend)
      }
      html.append(line + "</tr>")
    }
    html.append("</tbody></table></div>")
    html.append("</section>")
    return html.joined(separator: "\n")
  }

  /// One cell: the outcome's short label, opening to its details.
  private static func cell(_ row: ConformanceMatrixRow?, rule: String, backend: String) -> String {
    let name = HTMLText.escaped(rule + " on " + backend)
    guard let row else {
      return "<td class=\"outcome missing\" data-backend=\"\(HTMLText.escaped(backend))\""
        + " title=\"\(name)\">—</td>"
    }
    let outcome = outcomes.first { $0.kind == row.outcome } ?? (row.outcome, "?", "missing")
    let details = row.details.isEmpty ? "No details." : row.details
    return
      "<td class=\"outcome \(outcome.className)\" data-backend=\"\(HTMLText.escaped(backend))\""
      + " title=\"\(name): \(HTMLText.escaped(outcome.label))\"><details><summary>"
      + HTMLText.escaped(outcome.label) + "</summary><p><strong>\(name)</strong>: "
      + HTMLText.escaped(details) + "</p></details></td>"
  }
}
