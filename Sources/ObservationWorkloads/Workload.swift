/// The scenarios both harnesses measure.
public enum Workload: String, Sendable, Hashable, CaseIterable, Codable {
  /// Register *n* observers on one subject; cost per subscription.
  case subscribe
  /// One write delivered to *n* observers; cost per delivered observer.
  case notify
  /// Cancel *n* observers in some order; cost per cancellation.
  case cancel
  /// *n* observers in steady state; each step cancels one, subscribes one and writes once.
  case churn
  /// *n* subjects with one observer each, one write on each; cost per write.
  case fanIn = "fan-in"
  /// `notify` through the read-only `AnyObservable` and the send-only `ObservationInput`.
  case erasedNotify = "erased-notify"
  /// `subscribe` through `AnyObservable`.
  case erasedSubscribe = "erased-subscribe"
  /// *n* observers of a path of some depth, `root.next?…?.title`: a leaf change, or replacing
  /// the first intermediate (every observation rebinds); cost per delivered observer.
  case nested
  /// *t* threads each writing to one subject that has *n* observers; cost per delivered
  /// observer, the deliveries of every thread counted together.
  case contendedNotify = "contended-notify"
  /// *t* threads each subscribing and cancelling on one subject with *n* observers while
  /// another thread writes to it; cost per subscribe-and-cancel step.
  case contendedChurn = "contended-churn"

  /// The patterns the workload is measured with.
  public var patterns: [WorkloadPattern] {
    switch self {
    case .cancel: return [.fifo, .lifo, .random]
    case .nested: return [.leaf, .rebind]
    case .subscribe, .notify, .churn, .fanIn, .erasedNotify, .erasedSubscribe, .contendedNotify,
      .contendedChurn:
      return [.single]
    }
  }

  /// The patterns the allocation benchmarks in `Benchmarks/` run the workload with, at every
  /// size they measure; none for a workload only `observatory` measures.
  ///
  /// A suite is named `<workload>_<backend>_<n>`, with `-<pattern>` after the workload for a
  /// pattern other than ``WorkloadPattern/single``, and its threshold file after the suite.
  public var benchmarkedPatterns: [WorkloadPattern] {
    switch self {
    case .subscribe, .notify, .churn: return [.single]
    case .cancel: return [.random]
    case .fanIn, .erasedNotify, .erasedSubscribe, .nested, .contendedNotify, .contendedChurn:
      return []
    }
  }

  /// Whether the workload observes a path whose depth is a dimension of the sweep; the others
  /// observe one property and report depth 0.
  public var hasDepth: Bool { self == .nested }

  /// Whether several threads use one subject at once, so that the number of threads is a
  /// dimension of the sweep; the others run on one thread and report 1.
  ///
  /// Only a backend that declares `threadSafe` is measured on such a workload: for any other,
  /// concurrent use is undefined behaviour, and its cell is `n/a`.
  public var isContended: Bool { self == .contendedNotify || self == .contendedChurn }

  /// What one operation is, for the CSV's `unit` column.
  public var unit: String {
    switch self {
    case .subscribe, .erasedSubscribe: return "subscription"
    case .notify, .erasedNotify: return "delivery"
    case .cancel: return "cancellation"
    case .churn: return "step"
    case .fanIn: return "write"
    case .nested: return "delivery"
    case .contendedNotify: return "delivery"
    case .contendedChurn: return "step"
    }
  }

  /// How many times a repetition at full scale runs the body of its timed loop with `n`
  /// observers: once per subscription, per write (`notify`: each reaches `n` observers), per
  /// cancellation, per churn step, per write to one of fan-in's subjects, per change of the
  /// nested path.
  ///
  /// The benchmarks allow fewer than half an allocation per iteration: one more allocation per
  /// iteration, the regression they exist for, always exceeds that.
  ///
  /// - Complexity: O(1).
  public func iterations(n: Int, scale: WorkScale = .full) -> Int {
    switch self {
    case .subscribe, .erasedSubscribe, .cancel: return n * Drivers.batch(for: n, scale: scale)
    case .notify, .erasedNotify: return Drivers.writes(for: n, scale: scale)
    case .churn: return Drivers.churnSteps(for: n, scale: scale)
    case .fanIn: return n * Drivers.batch(for: n, scale: scale)
    case .nested: return max(1, Drivers.writes(for: n, scale: scale) / 4)
    case .contendedNotify: return Drivers.contendedWrites(for: n, scale: scale)
    case .contendedChurn: return Drivers.contendedChurnSteps(scale: scale)
    }
  }

  /// The fewest operations a repetition with `n` observers does at any scale, which bounds the
  /// sweep's projection of a cell's time from below: churn's step count has a floor, and every
  /// other workload touches each observer at least once.
  ///
  /// - Complexity: O(1).
  public func minimumOperations(n: Int) -> Int {
    switch self {
    case .churn: return Drivers.fewestChurnSteps
    case .contendedChurn: return 1
    case .subscribe, .notify, .cancel, .fanIn, .erasedNotify, .erasedSubscribe, .nested,
      .contendedNotify:
      return n
    }
  }

  /// The workload of the physical limit a report reads this one's cost against (the
  /// `reference-c` row's cell of that workload, pattern and size: the `ratio_to_limit`
  /// column), and whose reference rows a chart of this one draws as its floor; `nil` for a
  /// workload with no limit row.
  ///
  /// `notify` and `erased-notify` deliver each write to every observer, what C's loop over
  /// function pointers does with nothing in the way; `subscribe` and `erased-subscribe` keep a
  /// handler and its one allocated context, what a C slot map does; `cancel` finds a
  /// subscription from its handle and frees its context, in the same order.
  public var limitWorkload: Workload? {
    switch self {
    case .notify, .erasedNotify: return .notify
    case .subscribe, .erasedSubscribe: return .subscribe
    case .cancel: return .cancel
    case .churn, .fanIn, .nested, .contendedNotify, .contendedChurn: return nil
    }
  }

  /// Whether a report reads the workload's cost against a physical limit measured in the same
  /// run (``limitWorkload``).
  public var hasRatioToLimit: Bool { limitWorkload != nil }

  /// What the workload does and what one operation costs, in a sentence: the HTML report's
  /// caption and `observatory list`'s description.
  ///
  /// - Complexity: O(1).
  public var summary: String {
    switch self {
    case .subscribe: return "Register n observers on one subject; cost per subscription."
    case .notify: return "One write delivered to n observers; cost per delivered observer."
    case .cancel: return "Cancel n observers in some order; cost per cancellation."
    case .churn:
      return "n observers in steady state; each step cancels one, subscribes one and writes once."
    case .fanIn: return "n subjects with one observer each, one write on each; cost per write."
    case .erasedNotify:
      return "notify through the read-only AnyObservable and the send-only ObservationInput."
    case .erasedSubscribe: return "subscribe through AnyObservable."
    case .nested:
      return "n observers of a path of some depth: a leaf change, or replacing the first"
        + " intermediate (every observation rebinds); cost per delivered observer."
    case .contendedNotify:
      return "t threads each write to one subject with n observers; cost per delivered observer."
    case .contendedChurn:
      return "t threads each subscribe and cancel on one subject with n observers while another"
        + " writes; cost per subscribe-and-cancel step."
    }
  }
}

/// A variant of a workload: the order of cancellation, the part of a path that changes, or
/// ``single`` for a workload without variants.
public enum WorkloadPattern: String, Sendable, Hashable, CaseIterable, Codable {
  /// The workload has no variants: its one form, written `-` in reports.
  case single = "-"
  /// Oldest first.
  case fifo
  /// Newest first.
  case lifo
  /// A seeded shuffle.
  case random
  /// Nested: the leaf changes.
  case leaf
  /// Nested: the first intermediate is replaced, so every observation rebinds (depth 2 or
  /// more).
  case rebind
}

extension WorkloadPattern {
  /// The shallowest path a nested pattern can run on: rebinding replaces an intermediate,
  /// which a path of one property does not have.
  public var minimumDepth: Int { self == .rebind ? 2 : 1 }

  /// What the pattern varies, in a few words, for `observatory list`.
  ///
  /// - Complexity: O(1).
  public var summary: String {
    switch self {
    case .single: return "the workload has no variants"
    case .fifo: return "cancel the oldest observer first"
    case .lifo: return "cancel the newest observer first"
    case .random: return "cancel in a seeded random order"
    case .leaf: return "the leaf of the path changes"
    case .rebind: return "the first intermediate is replaced, so every observation rebinds"
    }
  }
}
