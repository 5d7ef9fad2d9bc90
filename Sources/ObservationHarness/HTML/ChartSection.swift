import ObservationWorkloads

/// A workload's part of the page: its charts, cost first, then what was measured beside it.
struct ChartSection {
  /// The workload.
  var workload: Workload
  /// The section's identifier in the page (`workload-notify`), from the workload's name.
  var identifier: String
  /// The charts, in order: every pattern's cost, then every pattern's memory and cache
  /// columns.
  var charts: [Chart]

  /// The sections of `report`, one per workload in the order the report first has them; a
  /// chart per (metric, allocator, pattern, depth) and quantity the report has values of
  /// (the cost chart always, so that a series capped at every size still shows why).
  ///
  /// The reference rows (``MeasuredBackend/references``) are drawn dashed in every chart they
  /// have values in; they are measured on `notify`, and also drawn as the floor of
  /// `erased-notify`, whose ratio to the limit is read against them.
  ///
  /// - Complexity: O(*r* log *r*) for *r* results.
  static func sections(of report: Report) -> [ChartSection] {
    let results = report.results
    let referenceNames = MeasuredBackend.references.map(\.name)
    var keys: [Chart.Key] = []
    var cellsByKey: [Chart.Key: [CellResult]] = [:]
    for result in results {
      let key = Chart.Key(result)
      if cellsByKey[key] == nil { keys.append(key) }
      cellsByKey[key, default: []].append(result)
    }
    let colors = colorClasses(results.map(\.cell.backend), references: referenceNames)
    let allocators = Set(results.map(\.cell.allocator))
    let metrics = Set(results.map(\.metric))
    var workloads: [Workload] = []
    for key in keys where !workloads.contains(key.workload) { workloads.append(key.workload) }
    var chartCount = 0
    return workloads.map { workload in
      var charts: [Chart] = []
      let workloadKeys = keys.filter { $0.workload == workload }
      for quantity in ChartQuantity.allCases {
        for key in workloadKeys {
          var cells = cellsByKey[key] ?? []
          guard quantity == .cost || cells.contains(where: { quantity.value(of: $0) != nil })
          else { continue }
          // The floor of erased-notify is the reference rows' notify.
          var borrowed: Set<String> = []
          if quantity == .cost && workload == .erasedNotify
            && !cells.contains(where: { referenceNames.contains($0.cell.backend) })
          {
            var notify = key
            notify.workload = .notify
            let floor = (cellsByKey[notify] ?? []).filter {
              referenceNames.contains($0.cell.backend)
            }
            cells = floor + cells
            borrowed = Set(floor.map(\.cell.backend))
          }
          chartCount += 1
          charts.append(
            chart(
              key: key, quantity: quantity, cells: cells, identifier: "chart-\(chartCount)",
              colors: colors, references: referenceNames, borrowed: borrowed,
              naming: (allocators.count > 1, metrics.count > 1)))
        }
      }
      return ChartSection(
        workload: workload, identifier: "workload-\(workload.rawValue)", charts: charts)
    }
  }

  /// A colour class per backend, by first appearance: `c0` to `c11` for backends, `r0` and
  /// `r1` for the reference rows.
  private static func colorClasses(
    _ backends: [String], references: [String]
  ) -> [String: String] {
    var classes: [String: String] = [:]
    var backendCount = 0
    var referenceCount = 0
    for backend in backends where classes[backend] == nil {
      if references.contains(backend) {
        classes[backend] = "r\(referenceCount % 2)"
        referenceCount += 1
      } else {
        classes[backend] = "c\(backendCount % 12)"
        backendCount += 1
      }
    }
    return classes
  }

  private static func chart(
    key: Chart.Key, quantity: ChartQuantity, cells: [CellResult], identifier: String,
    colors: [String: String], references: [String], borrowed: Set<String>,
    naming: (allocator: Bool, metric: Bool)
  ) -> Chart {
    var backends: [String] = []
    var byBackend: [String: [CellResult]] = [:]
    for result in cells {
      if byBackend[result.cell.backend] == nil { backends.append(result.cell.backend) }
      byBackend[result.cell.backend, default: []].append(result)
    }
    // The floor first, so that the backends' lines are drawn over it.
    let ordered =
      backends.filter(references.contains) + backends.filter { !references.contains($0) }
    let lines = ordered.map { backend in
      Chart.Line(
        backend: backend, isReference: references.contains(backend),
        remark: borrowed.contains(backend) ? "measured on notify" : "",
        colorClass: colors[backend] ?? "c0", cells: byBackend[backend] ?? [], quantity: quantity)
    }
    let operation =
      cells.first { !references.contains($0.cell.backend) }?.unit
      ?? cells.first?.unit ?? key.workload.unit
    var title = quantity.heading(metric: key.metric) + ": " + key.description
    if naming.allocator { title += ", \(key.allocator.rawValue) allocator" }
    if naming.metric && quantity != .cost { title += ", \(key.metric.rawValue) run" }
    return Chart(
      key: key, quantity: quantity, title: title,
      unit: quantity.unit(metric: key.metric, operation: operation), identifier: identifier,
      sizes: Set(cells.map(\.cell.n)).sorted(), lines: lines)
  }
}

extension Chart.Key: CustomStringConvertible {
  /// The key of `result`'s cell.
  init(_ result: CellResult) {
    self.init(
      metric: result.metric, allocator: result.cell.allocator, workload: result.cell.workload,
      pattern: result.cell.pattern, depth: result.cell.depth)
  }

  /// The workload with its pattern and depth: `notify`, `cancel (random)`,
  /// `nested (leaf, depth 3)`.
  var description: String {
    var details: [String] = []
    if pattern != .none { details.append(pattern.rawValue) }
    if workload.hasDepth || depth != 0 { details.append("depth \(depth)") }
    return workload.rawValue + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
  }
}
