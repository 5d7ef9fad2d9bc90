import ObservationWorkloads

/// Turns cell results into report rows.
public struct ReportBuilder {
  let environment: RunEnvironment
  let repetitions: Int
  var metric: Metric = .time

  /// The report's rows for `results`, in sweep order; `largestFinished` gives each series'
  ///  largest finished size, for the capped rows' notes.
  public func rows(
    _ results: [(CellPlan, CellRunner.Result?)], largestFinished: [String: Int]
  ) -> [ReportRow] {
    // The physical limit per (allocator, n), from the C reference measured in this run.
    var limits: [String: Double] = [:]
    for (plan, result) in results where plan.backend == MeasuredBackend.referenceC.name {
      if case .finished(let outcome)? = result, outcome.problem == nil,
        let summary = Summary(costs(outcome))
      {
        limits["\(plan.allocator.rawValue)/\(plan.n)"] = summary.median
      }
    }
    return results.map { plan, result in
      var row = base(plan)
      switch result {
      case nil:
        row["status"] = "capped"
        row["note"] =
          "not run: a smaller size of this series ran out of its time budget, or the sizes"
          + " measured project this one far past it;"
          + " largest size finished: \(largestFinished[plan.series].map(String.init) ?? "none")"
      case .timedOut?:
        row["status"] = "capped"
        row["note"] =
          "stopped after the cell's time budget; largest size finished: "
          + (largestFinished[plan.series].map(String.init) ?? "none")
      case .failed(let reason)?:
        row["status"] = "failed"
        row["note"] = reason
      case .finished(let outcome)?:
        fill(
          &row, outcome, limit: limits["\(plan.allocator.rawValue)/\(plan.n)"], plan: plan,
          largestFinished: largestFinished[plan.series])
      }
      return row
    }
  }

  private func base(_ plan: CellPlan) -> ReportRow {
    var row = ReportRow()
    row["schema"] = ReportSchema.version
    row["run_id"] = environment.runID
    row["commit"] = environment.commit
    row["date"] = environment.date
    row["host"] = environment.host
    row["cpu"] = environment.cpu
    row["cores"] = String(environment.cores)
    row["os"] = environment.os
    row["swift"] = environment.swift
    row["build"] = environment.build
    row["allocator"] = plan.allocator.rawValue
    row["backend"] = plan.backend
    row["workload"] = plan.workload
    row["pattern"] = plan.pattern
    row["n"] = String(plan.n)
    row["depth"] = String(plan.depth)
    row["unit"] = Workload(rawValue: plan.workload)?.unit ?? "delivery"
    row["metric"] = metric.rawValue
    return row
  }

  /// The outcome's costs per operation in the report's metric, one per repetition (time) or
  /// per process (instructions).
  private func costs(_ outcome: CellOutcome) -> [Double] {
    metric == .instructions ? outcome.instructionsPerOperation : outcome.nanosecondsPerOperation
  }

  private func fill(
    _ row: inout ReportRow, _ outcome: CellOutcome, limit: Double?, plan: CellPlan,
    largestFinished: Int?
  ) {
    if let problem = outcome.problem {
      row["status"] = "invalid"
      row["note"] = problem
      return
    }
    guard !outcome.capped, let summary = Summary(costs(outcome)) else {
      row["status"] = "capped"
      row["note"] =
        "fewer than 3 repetitions fitted in the time budget; largest size finished: "
        + (largestFinished.map(String.init) ?? "none")
      return
    }
    row["repetitions"] = String(costs(outcome).count)
    switch metric {
    case .time:
      row["ns_min"] = csvNumber(summary.min)
      row["ns_median"] = csvNumber(summary.median)
      row["ns_p90"] = csvNumber(summary.p90)
      row["ns_max"] = csvNumber(summary.max)
    case .instructions:
      row["instructions_per_op"] = csvNumber(summary.median)
      if summary.median > 0 && costs(outcome).count > 1 {
        row["instructions_spread"] = csvNumber((summary.max - summary.min) / summary.median)
      }
      row["d1_misses_per_op"] = csvNumber(Summary(outcome.d1MissesPerOperation)?.median)
      row["ll_misses_per_op"] = csvNumber(Summary(outcome.llMissesPerOperation)?.median)
    }
    if plan.workload.hasSuffix("notify"), let limit, limit > 0 {
      row["ratio_to_limit"] = csvNumber(summary.median / limit)
    }
    if outcome.memoryMeasured {
      row["allocs_per_op"] = csvNumber(outcome.allocationsPerOperation)
      row["bytes_per_op"] = csvNumber(outcome.bytesPerOperation)
      row["retained_bytes_per_observer"] = csvNumber(outcome.retainedBytesPerObserver)
      row["status"] = "ok"
    } else {
      row["status"] = "ok-no-memory"
      row["note"] =
        "memory columns need jemalloc (apt-get install libjemalloc-dev; --allocator jemalloc)"
    }
  }

  /// A builder of the rows of a report of `metric`, measured in `environment`.
  public init(environment: RunEnvironment, repetitions: Int, metric: Metric = .time) {
    self.environment = environment
    self.repetitions = repetitions
    self.metric = metric
  }
}
