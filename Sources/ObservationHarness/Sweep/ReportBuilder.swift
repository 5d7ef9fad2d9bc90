import ObservationReports
import ObservationWorkloads

/// Turns what a sweep's cells did into a report.
package struct ReportBuilder {
  let environment: RunEnvironment
  var metric: Metric = .time
  /// The reference row each row's `ratio_to_limit` reads, by the row's name
  /// (`MeasuredBackend.limitRow`): the asynchronous floor for an asynchronous backend; a row
  /// not named here reads `reference-c`.
  var limitRows: [String: ReferenceRow] = [:]
  /// Each row's kind, by its name (`MeasuredBackend.kind`), for the `row_kind` column; a row
  /// not named here is told by its name (``RowKind/init(ofRowNamed:)``), as an older report's.
  var rowKinds: [String: RowKind] = [:]

  /// The report of `results`, in sweep order; `largestFinished` gives each series' largest
  /// finished size, for the capped results' reasons.
  ///
  /// - Complexity: O(*c*) for *c* cells.
  package func report(
    _ results: [(Cell, CellRunner.Result?)], largestFinished: [Cell.Series: Int]
  ) -> Report {
    // The limit per (reference row, allocator, workload, pattern, n), from the reference rows
    // measured in this run: the C limit, and the asynchronous floor.
    var limits: [Limit: Double] = [:]
    for (cell, result) in results {
      guard let row = ReferenceRow(rawValue: cell.backend), row == .c || row == .asyncTasks
      else { continue }
      if case .finished(let outcome)? = result, outcome.problem == nil,
        let summary = CellResult.Quantiles(costs(outcome))
      {
        limits[Limit(cell, row: row)] = summary.median
      }
    }
    return Report(
      results.map { cell, result in
        let largest = largestFinished[cell.series].map(String.init) ?? "none"
        switch result {
        case nil:
          return CellResult(
            cell: cell, rowKind: kind(of: cell), environment: environment, metric: metric,
            status: .capped(
              reason:
                "not run: a smaller size of this series ran out of its time budget, or the sizes"
                + " measured project this one far past it; largest size finished: \(largest)"))
        case .timedOut?:
          return CellResult(
            cell: cell, rowKind: kind(of: cell), environment: environment, metric: metric,
            status: .capped(
              reason: "stopped after the cell's time budget; largest size finished: \(largest)"))
        case .notApplicable(let reason)?:
          return CellResult(
            cell: cell, rowKind: kind(of: cell), environment: environment, metric: metric,
            status: .notApplicable(reason: reason))
        case .failed(let reason)?, .incompatible(let reason)?:
          return CellResult(
            cell: cell, rowKind: kind(of: cell), environment: environment, metric: metric,
            status: .failed(reason: reason))
        case .finished(let outcome)?:
          return self.result(
            cell, outcome, limit: limits[Limit(cell, row: limitRows[cell.backend] ?? .c)],
            largestFinished: largest)
        }
      })
  }

  /// The kind of `cell`'s row.
  private func kind(of cell: Cell) -> RowKind {
    rowKinds[cell.backend] ?? RowKind(ofRowNamed: cell.backend)
  }

  /// Where a cell's limit applies: its limit row's cell (the C reference's, or the
  /// asynchronous floor's) of its limit workload (``Workload/limitWorkload``), at the same
  /// pattern, allocator and size.
  private struct Limit: Hashable {
    var row: ReferenceRow
    var allocator: Allocator
    var workload: Workload?
    var pattern: WorkloadPattern
    var n: Int
    init(_ cell: Cell, row: ReferenceRow) {
      self.row = row
      allocator = cell.allocator
      workload = cell.workload.limitWorkload
      pattern = cell.pattern
      n = cell.n
    }
  }

  /// The outcome's costs per operation in the report's metric, one per repetition (time) or
  /// per process (instructions).
  private func costs(_ outcome: CellOutcome) -> [Double] {
    metric == .instructions ? outcome.instructionsPerOperation : outcome.nanosecondsPerOperation
  }

  private func result(
    _ cell: Cell, _ outcome: CellOutcome, limit: Double?, largestFinished: String
  ) -> CellResult {
    var result = CellResult(
      cell: cell, rowKind: kind(of: cell), environment: environment, metric: metric, status: .ok)
    result.allocatorVersion = outcome.allocatorVersion
    if let problem = outcome.problem {
      result.status = .invalid(reason: problem)
      return result
    }
    guard !outcome.capped, let summary = CellResult.Quantiles(costs(outcome)) else {
      result.status = .capped(
        reason: "fewer than \(CellPolicy.fewestRepetitions) repetitions fitted in the time budget;"
          + " largest size finished: \(largestFinished)")
      return result
    }
    result.repetitions = costs(outcome).count
    switch metric {
    case .time:
      result.nanoseconds = summary
    case .instructions:
      result.instructionsPerOperation = summary.median
      if summary.median > 0 && costs(outcome).count > 1 {
        result.instructionsSpread = (summary.max - summary.min) / summary.median
      }
      result.d1MissesPerOperation = CellResult.Quantiles(outcome.d1MissesPerOperation)?.median
      result.llMissesPerOperation = CellResult.Quantiles(outcome.llMissesPerOperation)?.median
    }
    if metric == .time, let latencies = outcome.latencyNanoseconds, !latencies.isEmpty {
      let sorted = latencies.sorted()
      result.latencyMedian = CellResult.Quantiles.quantile(sorted, 0.5)
      result.latencyP99 = CellResult.Quantiles.quantile(sorted, 0.99)
    }
    if cell.workload.hasRatioToLimit, let limit, limit > 0 {
      result.ratioToLimit = summary.median / limit
    }
    if outcome.memoryMeasured, let retained = outcome.retainedBytesPerObserver, retained < 0 {
      // Live bytes fell while the observers subscribed: the region freed what something before
      // it had allocated, so none of its memory figures is this cell's alone.
      result.status = .okWithoutMemory(
        reason: "live bytes fell by \(Int((-retained).rounded())) per observer in the timed region,"
          + " which freed memory allocated before it: its memory columns are left empty")
    } else if outcome.memoryMeasured {
      result.allocationsPerOperation = outcome.allocationsPerOperation
      result.bytesPerOperation = outcome.bytesPerOperation
      result.retainedBytesPerObserver = outcome.retainedBytesPerObserver
    } else {
      result.status = .okWithoutMemory(
        reason:
          "memory columns need jemalloc (apt-get install libjemalloc-dev; --allocator jemalloc)")
    }
    return result
  }

  /// A builder of the rows of a report of `metric`, measured in `environment`, each row's
  /// `ratio_to_limit` read against the reference row `limitRows` names for it (`reference-c`
  /// when it names none), its kind told by its name.
  package init(
    environment: RunEnvironment, metric: Metric = .time, limitRows: [String: ReferenceRow] = [:]
  ) {
    self.environment = environment
    self.metric = metric
    self.limitRows = limitRows
  }

  /// A builder of the report of `rows` (backends and reference rows), measured in
  /// `environment`: each row's kind and limit row are the row's own.
  ///
  /// - Complexity: O(*r*) for *r* rows.
  package init(environment: RunEnvironment, metric: Metric = .time, rows: [MeasuredBackend]) {
    self.init(
      environment: environment, metric: metric,
      limitRows: Dictionary(rows.map { ($0.name, $0.limitRow) }, uniquingKeysWith: { a, _ in a }))
    rowKinds = Dictionary(rows.map { ($0.name, $0.kind) }, uniquingKeysWith: { a, _ in a })
  }
}
