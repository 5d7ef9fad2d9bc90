import ObservationBackends
import ObservationCore
import ObservationHarness
import ObservationWorkloads

/// Everything a sweep can measure, as `observatory list` prints it: the backends with who wrote
/// their behaviour and what they declare, the reference rows, the workloads with their
/// patterns, and the sizes and depths of the default sweep.
///
/// Every value is read from the type that defines it (the rows a tool measures, `Workload`,
/// `WorkloadPattern`, ``SweepDefaults``), so the list cannot drift from what `run` accepts.
///
/// ```swift
/// let catalog = SweepCatalog(rows: MeasuredRows(backends: MeasuredBackend.builtIns))
/// print(catalog.text)
/// let names = catalog.backends.map(\.name)  // what `run --backend` accepts
/// ```
package struct SweepCatalog: Equatable, Sendable {
  /// A backend a sweep can measure: what `run --backend` accepts.
  package struct Backend: Equatable, Sendable {
    /// The name `--backend` takes and reports use.
    package var name: String
    /// Who wrote the behaviour it measures: the package that declares it, or a library.
    package var provenance: BackendProvenance
    /// What the backend declares: timing, capability flags, reentrancy bound.
    package var capabilities: BackendCapabilities
    /// For a nested variant (see `BackendDescription.nestedVariantOf`), its base backend.
    package var nestedVariantOf: String?
    /// The workloads a sweep that does not name the backend measures it on, in sweep order.
    package var defaultWorkloads: [Workload]
    /// Whether `conformance` runs the suite on it: not for a row measured through a
    /// subscription scheme of its own (`dense-handles`), whose rules would observe through
    /// tokens it does not use.
    package var inConformanceSuite: Bool = true
  }

  /// A reference loop: measured beside the backends, never named with `--backend`.
  package struct Reference: Equatable, Sendable {
    /// The row's name in reports.
    package var name: String
    /// The workloads the row is measured on.
    package var workloads: [Workload]
  }

  /// What the list calls the package whose backends are `.original`: `Observatory`, or a third
  /// party's tool.
  package var packageName: String
  /// The backends written in ``packageName``, when that is a third party's tool that measures
  /// the built-in backends too: the other `.original` backends are written in Observatory.
  /// `nil` when every `.original` backend is ``packageName``'s.
  package var ownBackends: Set<String>?
  /// The backends, in report order.
  package var backends: [Backend]
  /// The reference rows, in report order.
  package var references: [Reference]
  /// Every workload, in sweep order; each has its patterns (`Workload.patterns`).
  package var workloads: [Workload]
  /// The observer counts of the default sweep (``SweepDefaults/sizes``).
  package var sizes: [Int]
  /// The observer counts of the quick sweep (``SweepDefaults/quickSizes``).
  package var quickSizes: [Int]
  /// The nested workload's path depths in the default sweep (``SweepDefaults/depths``).
  package var depths: [Int]
  /// The deepest path `--depths` accepts (``SweepDefaults/maximumDepth``).
  package var maximumDepth: Int
  /// The threads of the contended workloads in the default sweep (``SweepDefaults/threads``).
  package var threads: [Int]
  /// The observer counts of the contended workloads in the default sweep
  /// (``SweepDefaults/contendedSizes``).
  package var contendedSizes: [Int]

  /// The catalog of a tool that measures `rows`.
  ///
  /// - Parameters:
  ///   - rows: the tool's rows: the backends `--backend` accepts, in report order, and the
  ///     reference rows measured beside them.
  ///   - packageName: who wrote the `.original` backends, for the list.
  ///   - ownBackends: the `.original` backends `packageName` wrote, when the others are
  ///     Observatory's built-in ones; `nil` when it wrote all of them.
  /// - Complexity: O(*b* × *w*) for *b* backends and *w* workloads.
  package init(
    rows: MeasuredRows, packageName: String = "Observatory", ownBackends: Set<String>? = nil
  ) {
    let workloads = Workload.allCases
    self.packageName = packageName
    self.ownBackends = ownBackends
    backends = rows.backends.map { row in
      Backend(
        name: row.name, provenance: row.description.provenance, capabilities: row.capabilities,
        nestedVariantOf: row.description.nestedVariantOf,
        defaultWorkloads: workloads.filter {
          row.isMeasuredByDefault(on: $0) && row.reasonNotMeasured(on: $0) == nil
        }, inConformanceSuite: row.backend != nil)
    }
    references = rows.references.map { row in
      Reference(name: row.name, workloads: workloads.filter(row.isMeasuredByDefault(on:)))
    }
    self.workloads = workloads
    sizes = SweepDefaults.sizes
    quickSizes = SweepDefaults.quickSizes
    depths = SweepDefaults.depths
    maximumDepth = SweepDefaults.maximumDepth
    threads = SweepDefaults.threads
    contendedSizes = SweepDefaults.contendedSizes
  }
}

extension SweepCatalog {
  /// Who wrote the `.original` backend called `name`: ``packageName``, or Observatory for a
  /// built-in backend that a third party's tool measures beside its own.
  package func writer(ofOriginal name: String) -> String {
    Self.writer(ofOriginal: name, packageName: packageName, ownBackends: ownBackends)
  }

  /// Who wrote the `.original` backend called `name` in a tool whose own backends are
  /// `ownBackends` (`nil` in Observatory's own tool), written in `packageName`.
  ///
  /// - Complexity: O(1) on average.
  package static func writer(
    ofOriginal name: String, packageName: String, ownBackends: Set<String>?
  ) -> String {
    guard let ownBackends, !ownBackends.contains(name) else { return packageName }
    return "Observatory"
  }
}
