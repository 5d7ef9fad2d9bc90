import ObservationReports
import ObservationWorkloads

/// One chart of the page: one quantity of one series of cells (a metric, allocator, workload,
/// pattern and depth) against *n*, or of one size against the path's depth, a line per backend,
/// with the reference rows as the floor.
struct Chart {
  /// What the horizontal axis is.
  enum Dimension: String {
    /// The number of observers: every size of one depth.
    case size = "n"
    /// The depth of the observed path: every depth of one size (a nested depth study).
    case depth
    /// The threads using one subject at once: every thread count of one size (a contended
    /// workload).
    case threads
    /// The reports of a trend, oldest first: one cell per report, at one size. Positions are
    /// the reports' indices, which the chart's ``Chart/positionLabels`` name.
    case run

    /// Whether the axis is logarithmic: every dimension but ``run``, whose positions are
    /// evenly spaced reports.
    var isLogarithmic: Bool { self != .run }

    /// Where `cell` goes on the axis.
    func position(of cell: Cell) -> Int {
      switch self {
      case .size: cell.n
      case .depth: cell.depth
      case .threads: cell.threads
      // A report's index is not in its cells: a trend places each cell itself.
      case .run: 0
      }
    }

    /// A position as the page writes it: `n = 1,024`, `depth 4`, `4 threads`.
    func label(_ position: Int) -> String {
      switch self {
      case .size: "n = " + NumberText.grouped(position)
      case .depth: "depth \(position)"
      case .threads: position == 1 ? "1 thread" : "\(position) threads"
      case .run: "report \(position + 1)"
      }
    }

    /// What the axis measures, in its title: `n`, `path depth`, `threads`.
    var axisTitle: String {
      switch self {
      case .size: "n"
      case .depth: "path depth"
      case .threads: "threads"
      case .run: "report, oldest first"
      }
    }
  }

  /// The cells a chart draws: one (metric, allocator, workload, pattern, depth).
  struct Key: Hashable {
    /// What the costs count.
    var metric: Metric
    /// The allocator the cells ran with.
    var allocator: Allocator
    /// The workload.
    var workload: Workload
    /// The workload's pattern (`single` for most).
    var pattern: WorkloadPattern
    /// The path depth (0 for the single-property workloads) of a chart against *n*, or the
    /// size of a chart against depth.
    var fixed: Int
  }

  /// One backend's line: its points where it was measured, and where it stops.
  struct Line {
    /// The backend's (or reference row's) name, as the report spells it.
    var backend: String
    /// Whether this is a reference row, drawn dashed as the floor.
    var isReference: Bool
    /// What the legend says after the name (`measured on notify` for a floor borrowed from
    /// another workload), or empty.
    var remark: String
    /// The CSS class that gives the line its colour (`c0` ... `c16`, `r0` ... `r3`).
    var colorClass: String
    /// Every cell of the line, by position on the horizontal axis.
    var cells: [Int: CellResult]
    /// The measured points, leftmost first.
    var points: [Point]
    /// The runs of positions at which the line has no value, each starting where it stops.
    var stops: [Stop]
  }

  /// A measured value.
  struct Point {
    /// The position on the horizontal axis: the size, or the depth.
    var x: Int
    /// The quantity's value.
    var value: Double
    /// The cost over the C limit's at the same size, when the report has it.
    var ratio: Double?
  }

  /// Consecutive positions a line has no value at: capped, invalid or failed cells.
  struct Stop {
    /// The cells, leftmost first; the first is where the marker goes.
    var cells: [CellResult]
    /// The positions of the cells on the horizontal axis.
    var positions: [Int]
    /// The value of the point just before them, where the line stopped; `nil` if the line
    /// has no point before them (the marker cannot be placed; the table still says why).
    var lastValue: Double?
    /// The statuses of the cells, `capped` first if any: the marker's kind.
    var status: String {
      cells.contains { $0.status.kind == .capped } ? "capped" : cells[0].status.name
    }
  }

  /// The key of the cells drawn.
  var key: Key
  /// What the horizontal axis is.
  var dimension: Dimension
  /// What is drawn.
  var quantity: ChartQuantity
  /// The chart's heading.
  var title: String
  /// What a value counts, per what: `ns per delivery`.
  var unit: String
  /// The chart's identifier in the page (`chart-3`), from its position: never from the input.
  var identifier: String
  /// Every position any line has a cell at, smallest first.
  var positions: [Int]
  /// What each position is called where the dimension cannot say (a trend's reports:
  /// `4c8b037 11-27`); empty for the other dimensions.
  var positionLabels: [Int: String] = [:]
  /// A trend's reports that changed how everything is measured since the report before them:
  /// what changed (`build release → release-static-stdlib`), by position. The axis marks them,
  /// so that the step they make is not read as a code change.
  var changes: [Int: String] = [:]
  /// The lines, reference rows first.
  var lines: [Line]

  /// The lines with at least one point: those the chart draws and the legend lists.
  var drawnLines: [Line] { lines.filter { !$0.points.isEmpty } }

  /// Whether any point has a ratio to the limit.
  var hasRatios: Bool { lines.contains { $0.points.contains { $0.ratio != nil } } }

  /// What `position` is called: its label in ``positionLabels``, or the dimension's.
  func label(_ position: Int) -> String {
    positionLabels[position] ?? dimension.label(position)
  }

  /// Whether the values are nanoseconds: a time, or a delivery's latency.
  var valuesAreNanoseconds: Bool {
    quantity == .latency || (quantity == .cost && key.metric == .time)
  }

  /// A value as the table under the chart and its tooltips print it: a time to three
  /// significant digits in the unit that fits (`3.52 µs`), any other value as the report holds
  /// it.
  func valueText(_ value: Double) -> String {
    valuesAreNanoseconds ? readableNanoseconds(value) : NumberText.value(value)
  }

  /// A value followed by what it counts: `3.52 µs per delivery`, `2 allocations per delivery`.
  func valueWithUnit(_ value: Double) -> String {
    guard valuesAreNanoseconds, unit.hasPrefix("ns ") else {
      return NumberText.value(value) + " " + unit
    }
    return readableNanoseconds(value) + " " + unit.dropFirst("ns ".count)
  }
}

extension Chart.Line {
  /// The line of `backend` through `cells` (one per position of `dimension`) for `quantity`:
  /// its points, and the runs of positions where it has no value.
  ///
  /// A measured cell without the quantity's column (memory columns without jemalloc) is no
  /// point and no stop: nothing is known there, and the status says why elsewhere.
  ///
  /// - Complexity: O(*c* log *c*) for *c* cells.
  init(
    backend: String, isReference: Bool, remark: String, colorClass: String,
    cells: [CellResult], quantity: ChartQuantity, dimension: Chart.Dimension
  ) {
    self.init(
      backend: backend, isReference: isReference, remark: remark, colorClass: colorClass,
      placed: cells.map { (dimension.position(of: $0.cell), $0) }, quantity: quantity)
  }

  /// The line of `backend` through `placed`, each cell at the position given with it (a
  /// trend's report index), for `quantity`.
  ///
  /// - Complexity: O(*c* log *c*) for *c* cells.
  init(
    backend: String, isReference: Bool, remark: String, colorClass: String,
    placed: [(position: Int, result: CellResult)], quantity: ChartQuantity
  ) {
    self.backend = backend
    self.isReference = isReference
    self.remark = remark
    self.colorClass = colorClass
    self.cells = Dictionary(
      placed.map { ($0.position, $0.result) }, uniquingKeysWith: { first, _ in first })
    points = []
    stops = []
    var pending: [(position: Int, result: CellResult)] = []
    func closeStop() {
      guard !pending.isEmpty else { return }
      stops.append(
        Chart.Stop(
          cells: pending.map(\.result), positions: pending.map(\.position),
          lastValue: points.last?.value))
      pending = []
    }
    // Stable: cells at one position keep their order, the first one drawn.
    let sorted = placed.enumerated().sorted {
      ($0.element.position, $0.offset) < ($1.element.position, $1.offset)
    }.map(\.element)
    for (position, result) in sorted {
      if let value = quantity.value(of: result) {
        closeStop()
        points.append(
          Chart.Point(
            x: position, value: value, ratio: quantity == .cost ? result.ratioToLimit : nil))
      } else if !result.status.isMeasured {
        pending.append((position, result))
      }
    }
    closeStop()
  }
}
