import ObservationReports
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
  /// chart against *n* per (metric, allocator, pattern, depth) and quantity the report has
  /// values of (the cost chart always, so that a series capped at every size still shows
  /// why). A nested workload measured at several depths of one size (a depth study) also gets
  /// a chart against depth per size, and then no chart of a single size.
  ///
  /// The reference rows (those whose `rowKind` is `reference`) are drawn dashed in every chart they
  /// have values in; they are measured on `notify`, `subscribe` and `cancel`, and also drawn
  /// as the floor of the erased workloads, whose ratio to the limit is read against them
  /// (`Workload.limitWorkload`).
  ///
  /// - Complexity: O(*r* log *r*) for *r* results.
  static func sections(of report: Report) -> [ChartSection] {
    let results = report.results
    let referenceNames = Array(Set(results.filter(\.isReference).map(\.cell.backend)))
    var groups: [(Chart.Dimension, Chart.Key)] = []
    var cellsByGroup: [Chart.Dimension: [Chart.Key: [CellResult]]] = [:]
    for dimension in [Chart.Dimension.size, .depth, .threads] {
      // A backend a contended workload does not apply to has no line, only its n/a rows.
      for result in results where result.status.kind != .notApplicable {
        let key = Chart.Key(result, dimension: dimension)
        if cellsByGroup[dimension]?[key] == nil { groups.append((dimension, key)) }
        cellsByGroup[dimension, default: [:]][key, default: []].append(result)
      }
    }
    // A chart against depth when a size has several depths; then a lone size says nothing more.
    groups.removeAll { dimension, key in
      let cells = cellsByGroup[dimension]?[key] ?? []
      let positions = Set(cells.map { dimension.position(of: $0.cell) })
      switch dimension {
      case .depth: return !key.workload.hasDepth || positions.count < 2
      // A contended workload is drawn against threads at each size, never against n, where one
      // backend's cells of several thread counts would make one line.
      case .threads: return !key.workload.isContended
      // One report has no trend: TrendPage draws those.
      case .run: return true
      case .size:
        return key.workload.isContended
          || positions.count == 1
            && cells.allSatisfy { result in
              let depthKey = Chart.Key(result, dimension: .depth)
              let depths = Set((cellsByGroup[.depth]?[depthKey] ?? []).map(\.cell.depth))
              return result.cell.workload.hasDepth && depths.count > 1
            }
      }
    }
    let colors = colorClasses(results.map(\.cell.backend), references: referenceNames)
    let naming = (
      allocator: Set(results.map(\.cell.allocator)).count > 1,
      metric: Set(results.map(\.metric)).count > 1
    )
    var workloads: [Workload] = []
    for (_, key) in groups where !workloads.contains(key.workload) {
      workloads.append(key.workload)
    }
    var chartCount = 0
    return workloads.map { workload in
      var charts: [Chart] = []
      for quantity in ChartQuantity.ofOneReport {
        for (dimension, key) in groups where key.workload == workload {
          var cells = cellsByGroup[dimension]?[key] ?? []
          guard quantity == .cost || cells.contains(where: { quantity.value(of: $0) != nil })
          else { continue }
          // The floor of a workload read against a limit it does not measure itself (the
          // erased workloads) is the reference rows' cells of its limit workload.
          var borrowed: Set<String> = []
          if quantity == .cost, let limitWorkload = workload.limitWorkload,
            !cells.contains(where: { referenceNames.contains($0.cell.backend) })
          {
            var limitKey = key
            limitKey.workload = limitWorkload
            let floor = (cellsByGroup[dimension]?[limitKey] ?? []).filter {
              referenceNames.contains($0.cell.backend)
            }
            cells = floor + cells
            borrowed = Set(floor.map(\.cell.backend))
          }
          chartCount += 1
          charts.append(
            chart(
              key: key, dimension: dimension, quantity: quantity, cells: cells,
              identifier: "chart-\(chartCount)", colors: colors, references: referenceNames,
              borrowed: borrowed, limitWorkload: workload.limitWorkload, naming: naming))
        }
      }
      return ChartSection(
        workload: workload, identifier: "workload-\(workload.rawValue)", charts: charts)
    }
  }

  /// A colour class per backend, the same on every page and chart: a built-in backend takes
  /// the colour of its place in ``ChartStyle/builtInBackends``; another backend, in order of
  /// first appearance, the first colour after its name's hash that no backend of `backends`
  /// holds (the palette reused once every colour is held). The reference rows take `r0` to
  /// `r3` in the order of ``ReferenceRow``.
  ///
  /// - Complexity: O(*b* · *k*) for *b* backends and *k* colours.
  static func colorClasses(
    _ backends: [String], references: [String]
  ) -> [String: String] {
    var classes: [String: String] = [:]
    var held = Set<Int>()
    for backend in backends where !references.contains(backend) {
      if let place = ChartStyle.builtInBackends.firstIndex(of: backend) {
        held.insert(place % ChartStyle.lineColors.count)
      }
    }
    var referenceCount = 0
    for backend in backends where classes[backend] == nil {
      if references.contains(backend) {
        let place = ReferenceRow.names.firstIndex(of: backend) ?? referenceCount
        classes[backend] = "r\(place % ChartStyle.referenceColors.count)"
        referenceCount += 1
      } else if let place = ChartStyle.builtInBackends.firstIndex(of: backend) {
        classes[backend] = "c\(place % ChartStyle.lineColors.count)"
      } else {
        let count = ChartStyle.lineColors.count
        if held.count == count { held.removeAll() }
        var place = stableHash(backend) % count
        while held.contains(place) { place = (place + 1) % count }
        held.insert(place)
        classes[backend] = "c\(place)"
      }
    }
    return classes
  }

  /// FNV-1a of `name`'s UTF-8: the same in every process (Swift's `hashValue` is seeded per
  /// process), so that a backend's colour does not change from run to run.
  private static func stableHash(_ name: String) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return Int(hash % UInt64(Int.max))
  }

  private static func chart(
    key: Chart.Key, dimension: Chart.Dimension, quantity: ChartQuantity, cells: [CellResult],
    identifier: String,
    colors: [String: String], references: [String], borrowed: Set<String>,
    limitWorkload: Workload?, naming: (allocator: Bool, metric: Bool)
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
        remark: remark(
          of: backend,
          borrowedFrom: borrowed.contains(backend) ? limitWorkload ?? key.workload : nil
        ),
        colorClass: colors[backend] ?? "c0", cells: byBackend[backend] ?? [], quantity: quantity,
        dimension: dimension)
    }
    let operation =
      cells.first { !references.contains($0.cell.backend) }?.unit
      ?? cells.first?.unit ?? key.workload.unit
    var title = quantity.heading(metric: key.metric) + ": " + key.description(dimension)
    if naming.allocator { title += ", \(key.allocator.rawValue) allocator" }
    if naming.metric && quantity != .cost { title += ", \(key.metric.rawValue) run" }
    return Chart(
      key: key, dimension: dimension, quantity: quantity, title: title,
      unit: quantity.unit(metric: key.metric, operation: operation), identifier: identifier,
      positions: Set(cells.map { dimension.position(of: $0.cell) }).sorted(), lines: lines)
  }
}

extension ChartSection {
  /// What a line's legend says after its name: `asynchronous` for the asynchronous floor's row
  /// (a task per observer, what an asynchronous backend is read against; a standalone chart's
  /// legend reads `floor, asynchronous`), and `measured on notify` for a floor drawn from its
  /// limit workload's cells.
  ///
  /// - Complexity: O(1).
  static func remark(of backend: String, borrowedFrom workload: Workload?) -> String {
    var notes: [String] = []
    if backend == ReferenceRow.asyncTasks.rawValue {
      notes.append("asynchronous")
    }
    if let workload { notes.append("measured on \(workload.rawValue)") }
    return notes.joined(separator: ", ")
  }
}

extension Chart.Key {
  /// The key of `result`'s cell in a chart against `dimension`: its depth for a chart against
  /// *n*, its size for one against depth.
  init(_ result: CellResult, dimension: Chart.Dimension) {
    self.init(
      metric: result.metric, allocator: result.cell.allocator, workload: result.cell.workload,
      pattern: result.cell.pattern, fixed: dimension == .size ? result.cell.depth : result.cell.n)
  }

  /// The workload with its pattern and what is fixed: `notify`, `cancel (random)`,
  /// `nested (leaf, depth 3)`, and against depth `nested (leaf, n = 1,024) by depth`.
  func description(_ dimension: Chart.Dimension) -> String {
    var details: [String] = []
    if pattern != .single { details.append(pattern.rawValue) }
    switch dimension {
    case .size: if workload.hasDepth || fixed != 0 { details.append("depth \(fixed)") }
    case .depth, .threads, .run: details.append("n = " + NumberText.grouped(fixed))
    }
    return workload.rawValue + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
      + (dimension == .depth ? " by depth" : dimension == .threads ? " by threads" : "")
  }
}
