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

  /// The patterns the workload is measured with.
  public var patterns: [WorkloadPattern] {
    switch self {
    case .cancel: return [.fifo, .lifo, .random]
    case .nested: return [.leaf, .rebind]
    default: return [.single]
    }
  }

  /// Whether the workload observes a path whose depth is a dimension of the sweep; the others
  /// observe one property and report depth 0.
  public var hasDepth: Bool { self == .nested }

  /// What one operation is, for the CSV's `unit` column.
  public var unit: String {
    switch self {
    case .subscribe, .erasedSubscribe: return "subscription"
    case .notify, .erasedNotify: return "delivery"
    case .cancel: return "cancellation"
    case .churn: return "step"
    case .fanIn: return "write"
    case .nested: return "delivery"
    }
  }

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
