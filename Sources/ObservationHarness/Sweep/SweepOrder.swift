extension Sweep {
  /// The order a sweep runs `plans` in: the series taken in turn, one size of each per round,
  /// each series' sizes in their own order.
  ///
  /// A busy moment of the machine (a build beside the sweep, a burst of another process)
  /// slows whatever runs during it. Run series after series, it would slow one backend's
  /// cells together, and between two runs that backend would seem to have moved. Taken in
  /// turn, such a moment lands on a few cells of many series, reference rows included, and a
  /// comparison that looks at each backend as a whole (``Comparison``) sees it as noise, not
  /// as a change. Within a series the sizes still grow, so a series still stops at the first
  /// size past its budget.
  ///
  /// - Returns: the indices of `plans`, in the order to run them.
  /// - Complexity: O(*c*) for *c* cells.
  static func executionOrder(of plans: [Cell]) -> [Int] {
    var series: [Cell.Series] = []
    var members: [Cell.Series: [Int]] = [:]
    for (index, plan) in plans.enumerated() {
      if members[plan.series] == nil { series.append(plan.series) }
      members[plan.series, default: []].append(index)
    }
    var order: [Int] = []
    order.reserveCapacity(plans.count)
    var round = 0
    while order.count < plans.count {
      for key in series {
        if let cells = members[key], round < cells.count { order.append(cells[round]) }
      }
      round += 1
    }
    return order
  }
}
