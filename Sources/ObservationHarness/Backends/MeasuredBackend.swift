import ObservationCore
import ObservationReports
import ObservationWorkloads

/// A row the harness can measure: a backend with what a report says about it, or one of the
/// reference rows.
///
/// Made from a backend's concrete type, it binds every workload's driver to that type, so the
/// measured loops are specialized for it: a third party's backend is measured exactly as the
/// built-in ones are. A row is `Sendable`, so the backend must be: the tool is one value its
/// commands share.
///
/// ```swift
/// let row = MeasuredBackend(MyBackend(), BackendDescription(provenance: .original))
/// ```
///
/// The command-line library's tool takes such rows and measures them beside the built-in
/// backends, in the same reports (<doc:MeasuringYourOwnBackend>).
public struct MeasuredBackend: Sendable {
  /// The row's name in reports: the backend's name, or the reference loop's.
  public let name: String
  /// Whether the row is a backend (through the contract's token or, a row made with
  /// ``init(_:subscribingThrough:named:capabilities:_:)``, a subscription of its own) or a
  /// reference loop, the floor a backend's cost is read against; a report's `row_kind` says
  /// the same.
  public let kind: RowKind
  /// What the backend declares; for a reference loop, delivery of every value, synchronous
  /// but for the asynchronous floor's.
  public let capabilities: BackendCapabilities
  /// What a report says about the backend (for a reference loop: written here).
  public let description: BackendDescription
  /// The backend, for the conformance suite; `nil` for a reference loop, and for a row that
  /// subscribes through a scheme of its own, which the suite's rules (they observe through
  /// tokens) do not reach.
  package let backend: (any ObservationBackend & Sendable)?
  /// The only workloads the row measures, in order: a reference loop's, or those that
  /// subscribe or cancel for a row with a subscription scheme of its own; `nil` for a backend
  /// measured through its tokens, which measures every workload.
  package let onlyWorkloads: [Workload]?
  /// Makes the measurement of one cell: given the workload case and the memory probe, a
  /// function that does one repetition at a work scale.
  @usableFromInline
  let makeMeasurement: @Sendable (WorkloadCase, MemoryProbe) -> (WorkScale) -> Sample

  /// A backend to measure, described by `description`.
  ///
  /// It is inlinable so that the drivers are specialized for `Backend` in the caller's module.
  ///
  /// - Complexity: O(1).
  @inlinable
  public init<Backend: ObservationBackend & Sendable>(
    _ backend: Backend,
    _ description: BackendDescription = BackendDescription(provenance: .original)
  ) {
    self.init(
      name: backend.name, kind: .backend, capabilities: backend.capabilities,
      description: description, backend: backend
    ) { workloadCase, probe in
      { scale in Drivers.run(workloadCase, on: backend, probe: probe, scale: scale) }
    }
  }

  /// A backend measured through `scheme`, a subscription of its subjects' own that the
  /// contract cannot express (a handle that is a value, not an object), on the workloads whose
  /// cost is the subscription's: `subscribe` and `cancel`, with the very loops that measure
  /// every backend through its tokens. Put beside the same backend measured through its tokens,
  /// the row shows what the token costs.
  ///
  /// `capabilities` are what the subscriptions made through `scheme` keep (not
  /// `cancelsOnTokenDeinit` for a handle that is a value); the conformance suite does not run
  /// on the row, whose rules observe through tokens: check them with a token-shaped view of
  /// the scheme in your tests (<doc:MeasuringYourOwnBackend>).
  ///
  /// - Complexity: O(1).
  @inlinable
  public init<Backend: ObservationBackend & Sendable, Scheme: SubscriptionScheme & Sendable>(
    _ backend: Backend, subscribingThrough scheme: Scheme, named name: String,
    capabilities: BackendCapabilities,
    _ description: BackendDescription = BackendDescription(provenance: .original)
  ) where Scheme.Subject == Backend.Subject {
    self.init(
      name: name, kind: .backend, capabilities: capabilities, description: description,
      backend: nil, onlyWorkloads: [.subscribe, .cancel]
    ) { workloadCase, probe in
      { scale in
        switch workloadCase.workload {
        case .subscribe:
          return Drivers.subscribe(
            backend, through: scheme, n: workloadCase.n, probe: probe, scale: scale)
        case .cancel:
          return Drivers.cancel(
            backend, through: scheme, n: workloadCase.n, pattern: workloadCase.pattern,
            seed: workloadCase.seed, probe: probe, scale: scale)
        default:
          return Sample(
            nanoseconds: 0, operations: 0,
            problem: "\(name) measures subscribe and cancel only: its other workloads are"
              + " \(backend.name)'s")
        }
      }
    }
  }

  /// Every stored property, as given.
  @usableFromInline
  init(
    name: String, kind: RowKind, capabilities: BackendCapabilities, description: BackendDescription,
    backend: (any ObservationBackend & Sendable)?, onlyWorkloads: [Workload]? = nil,
    makeMeasurement: @escaping @Sendable (WorkloadCase, MemoryProbe) -> (WorkScale) -> Sample
  ) {
    self.name = name
    self.kind = kind
    self.capabilities = capabilities
    self.description = description
    self.backend = backend
    self.onlyWorkloads = onlyWorkloads
    self.makeMeasurement = makeMeasurement
  }

  /// Whether a write has been delivered when `set` returns.
  package var deliversSynchronously: Bool { capabilities.has(.synchronousDelivery) }

  /// Whether a sweep that does not name this row measures it on `workload`: a nested variant
  /// repeats its base backend's single-property numbers, and a reference loop, or a row with
  /// a subscription scheme of its own, measures only its own workloads.
  package func isMeasuredByDefault(on workload: Workload) -> Bool {
    if let onlyWorkloads { return onlyWorkloads.contains(workload) }
    return workload == .nested || description.nestedVariantOf == nil
  }

  /// Whether the row measures `workload` at all, named or not: every workload but a reference
  /// loop's or a subscription scheme's others.
  package func measures(_ workload: Workload) -> Bool {
    onlyWorkloads?.contains(workload) ?? true
  }

  /// Why the row is not measured on `workload` at all, or `nil` if it is: a contended workload
  /// runs only on a backend that declares `threadSafe`, since concurrent use of any other is
  /// undefined behaviour, which would be measured as a crash or a cost of nothing.
  ///
  /// - Complexity: O(1).
  package func reasonNotMeasured(on workload: Workload) -> String? {
    guard workload.isContended, kind == .backend, !capabilities.has(.threadSafe) else {
      return nil
    }
    return "\(name) does not declare threadSafe: using it from several threads at once is"
      + " undefined behaviour, so \(workload.rawValue) does not measure it"
  }

  /// The measurement of one cell, `workloadCase` read through `probe`, as a function of the
  /// work scale.
  ///
  /// - Complexity: O(1); the returned function does one repetition.
  package func measurement(
    of workloadCase: WorkloadCase, probe: MemoryProbe
  ) -> (WorkScale) -> Sample {
    makeMeasurement(workloadCase, probe)
  }
}

extension MeasuredBackend {
  /// The physical limit of each headline workload, in C: function pointers called from an
  /// array (`notify`, the floor for one callback), and a dense slot map that places a handler
  /// with its one allocated context (`subscribe`) and frees it again from its handle in any
  /// order (`cancel`). A report's `ratio_to_limit` reads a backend's cost against this row.
  package static var referenceC: MeasuredBackend {
    reference(
      .c,
      [
        .notify: { cell, probe, _ in ReferenceDrivers.cFunctionPointers(n: cell.n, probe: probe) },
        .subscribe: { cell, probe, _ in
          ReferenceDrivers.cSlotMapSubscribe(n: cell.n, probe: probe)
        },
        .cancel: { cell, probe, _ in
          ReferenceDrivers.cSlotMapCancel(
            n: cell.n, pattern: cell.pattern, seed: cell.seed, probe: probe)
        },
      ])
  }

  /// The handler every backend gets, called from a C loop without retaining it: the floor for
  /// calling that handler, which is a Swift closure with a thunk (see
  /// `ReferenceDrivers.cLoopCallingSwiftHandlers`).
  package static var referenceCSwiftHandler: MeasuredBackend {
    reference(
      .cSwiftHandler,
      [
        .notify: { cell, probe, _ in
          ReferenceDrivers.cLoopCallingSwiftHandlers(n: cell.n, probe: probe)
        }
      ])
  }

  /// Swift closures called from an array (`notify`), and appended to one whose capacity was
  /// reserved (`subscribe`): the floor for one closure call, and for keeping one closure.
  package static var referenceSwiftClosures: MeasuredBackend {
    reference(
      .swiftClosures,
      [
        .notify: { cell, probe, _ in ReferenceDrivers.swiftClosureArray(n: cell.n, probe: probe) },
        .subscribe: { cell, probe, _ in
          ReferenceDrivers.swiftClosureAppend(n: cell.n, probe: probe)
        },
      ])
  }

  /// The asynchronous floor: a task per observer on the run loop executor the asynchronous
  /// backends deliver on, waiting on a continuation (see `ReferenceDrivers.asyncTasksNotify`):
  /// resumed by every write (`notify`, with its latency), started (`subscribe`) and ended
  /// (`cancel`). A backend that does not declare `synchronousDelivery` reads its
  /// `ratio_to_limit` against this row. It delivers on a later turn itself, so it declares no
  /// `synchronousDelivery` either.
  package static var referenceAsyncTasks: MeasuredBackend {
    reference(
      .asyncTasks,
      [
        .notify: { cell, probe, scale in
          ReferenceDrivers.asyncTasksNotify(n: cell.n, probe: probe, scale: scale)
        },
        .subscribe: { cell, probe, scale in
          ReferenceDrivers.asyncTasksSubscribe(n: cell.n, probe: probe, scale: scale)
        },
        .cancel: { cell, probe, scale in
          ReferenceDrivers.asyncTasksCancel(
            n: cell.n, pattern: cell.pattern, seed: cell.seed, probe: probe, scale: scale)
        },
      ],
      capabilities: BackendCapabilities(
        timing: .asynchronousOrdered, [.deliversEveryValue], maxReentrancyDepth: .bounded(0)))
  }

  /// The reference rows, in report order (that of `ReferenceRow`).
  package static var references: [MeasuredBackend] {
    [referenceC, referenceCSwiftHandler, referenceSwiftClosures, referenceAsyncTasks]
  }

  /// The reference row whose cell a row's `ratio_to_limit` reads: the asynchronous floor for a
  /// backend that does not declare `synchronousDelivery`, the C limit for every other row
  /// (the reference rows included).
  ///
  /// - Complexity: O(1).
  package var limitRow: ReferenceRow {
    kind == .backend && !deliversSynchronously ? .asyncTasks : .c
  }

  private static func reference(
    _ row: ReferenceRow,
    _ loops: KeyValuePairs<Workload, @Sendable (WorkloadCase, MemoryProbe, WorkScale) -> Sample>,
    capabilities: BackendCapabilities = BackendCapabilities(
      timing: .didSet, [.deliversEveryValue, .synchronousDelivery],
      maxReentrancyDepth: .bounded(0))
  ) -> MeasuredBackend {
    let byWorkload = Dictionary(uniqueKeysWithValues: loops.map { ($0.key, $0.value) })
    let name = row.rawValue
    return MeasuredBackend(
      name: name, kind: .reference, capabilities: capabilities,
      description: BackendDescription(provenance: .original), backend: nil,
      onlyWorkloads: loops.map(\.key)
    ) { workloadCase, probe in
      { scale in
        guard let loop = byWorkload[workloadCase.workload] else {
          return Sample(
            nanoseconds: 0, operations: 0,
            problem: "\(name) has no \(workloadCase.workload.rawValue) loop; it measures "
              + loops.map(\.key.rawValue).joined(separator: ", "))
        }
        return loop(workloadCase, probe, scale)
      }
    }
  }
}

extension Array where Element == MeasuredBackend {
  /// The row called `name`, or `nil`.
  ///
  /// - Complexity: O(*n*) for *n* rows.
  package func row(named name: String) -> MeasuredBackend? { first { $0.name == name } }
}
