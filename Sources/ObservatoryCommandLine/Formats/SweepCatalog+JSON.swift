import ObservationBackends
import ObservationCore
import ObservationReports
import ObservationWorkloads

extension SweepCatalog {
  /// The catalog as JSON, for scripts that build a `--backend` or `--workload` filter. Every
  /// key is always present (`null` where a value does not apply), keys are sorted:
  ///
  /// - `backends`: per backend `name`, `provenance` (`original` or `library`), `library`
  ///   (its name, or `null`), `timing`, `capabilities` (sorted names),
  ///   `max_reentrancy_depth` (a number, or `"unbounded"`), `nested_variant_of` (a name, or
  ///   `null`), `default_workloads`, `written_in` (who wrote an `original` backend:
  ///   `Observatory` or the third party's package; `null` for a library's) and
  ///   `in_conformance_suite` (`false` for a row measured through a subscription of its own,
  ///   which `conformance` does not run);
  /// - `references`: per reference row `name` and `workloads`;
  /// - `workloads`: per workload `name`, `unit`, `summary`, `has_depth` and `patterns` (each
  ///   `name`, `summary` and `minimum_depth`, `null` for a workload without a path); `-` is
  ///   the one pattern of a workload without variants;
  /// - `default_sweep`: `sizes`, `quick_sizes`, `depths`, `maximum_depth`, `threads` and
  ///   `contended_sizes` (the threads and sizes of the contended workloads);
  /// - `package`: who wrote the `original` backends.
  ///
  /// - Throws: `EncodingError`, which these values never cause.
  /// - Complexity: O(*c*) for *c* characters of output.
  package func json() throws -> String {
    try JSONText.encode(
      Document(
        package: packageName,
        backends: backends.map { backend in
          let library: String?
          switch backend.provenance {
          case .original: library = nil
          case .library(let name): library = name
          }
          let depth: Document.Depth
          switch backend.capabilities.maxReentrancyDepth {
          case .bounded(let bound): depth = .bounded(bound)
          case .unbounded: depth = .unbounded
          }
          return Document.Backend(
            name: backend.name, provenance: library == nil ? "original" : "library",
            library: library, writtenIn: library == nil ? writer(ofOriginal: backend.name) : nil,
            timing: backend.capabilities.timing.rawValue,
            capabilities: backend.capabilities.flags.sorted().map(\.rawValue),
            maxReentrancyDepth: depth, nestedVariantOf: backend.nestedVariantOf,
            defaultWorkloads: backend.defaultWorkloads.map(\.rawValue),
            inConformanceSuite: backend.inConformanceSuite)
        },
        references: references.map {
          Document.Reference(name: $0.name, workloads: $0.workloads.map(\.rawValue))
        },
        workloads: workloads.map { workload in
          Document.Workload(
            name: workload.rawValue, unit: workload.unit, summary: workload.summary,
            hasDepth: workload.hasDepth,
            patterns: workload.patterns.map {
              Document.Pattern(
                name: $0.rawValue, summary: $0.summary,
                minimumDepth: workload.hasDepth ? $0.minimumDepth : nil)
            })
        },
        defaultSweep: Document.DefaultSweep(
          sizes: sizes, quickSizes: quickSizes, depths: depths, maximumDepth: maximumDepth,
          threads: threads, contendedSizes: contendedSizes)))
  }

  private struct Document: Encodable {
    struct Backend: Encodable {
      var name, provenance: String
      var library: String?
      var writtenIn: String?
      var timing: String
      var capabilities: [String]
      var maxReentrancyDepth: Depth
      var nestedVariantOf: String?
      var defaultWorkloads: [String]
      var inConformanceSuite: Bool

      enum CodingKeys: String, CodingKey {
        case name, provenance, library, timing, capabilities
        case writtenIn = "written_in"
        case maxReentrancyDepth = "max_reentrancy_depth"
        case nestedVariantOf = "nested_variant_of"
        case defaultWorkloads = "default_workloads"
        case inConformanceSuite = "in_conformance_suite"
      }

      // Written by hand so that `library`, `written_in` and `nested_variant_of` are `null`, not
      // absent.
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(provenance, forKey: .provenance)
        try container.encode(library, forKey: .library)
        try container.encode(writtenIn, forKey: .writtenIn)
        try container.encode(timing, forKey: .timing)
        try container.encode(capabilities, forKey: .capabilities)
        try container.encode(maxReentrancyDepth, forKey: .maxReentrancyDepth)
        try container.encode(nestedVariantOf, forKey: .nestedVariantOf)
        try container.encode(defaultWorkloads, forKey: .defaultWorkloads)
        try container.encode(inConformanceSuite, forKey: .inConformanceSuite)
      }
    }

    /// A number, or `"unbounded"`.
    enum Depth: Encodable {
      case bounded(Int)
      case unbounded

      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bounded(let depth): try container.encode(depth)
        case .unbounded: try container.encode("unbounded")
        }
      }
    }

    struct Reference: Encodable {
      var name: String
      var workloads: [String]
    }

    struct Workload: Encodable {
      var name, unit, summary: String
      var hasDepth: Bool
      var patterns: [Pattern]

      enum CodingKeys: String, CodingKey {
        case name, unit, summary, patterns
        case hasDepth = "has_depth"
      }
    }

    struct Pattern: Encodable {
      var name, summary: String
      var minimumDepth: Int?

      enum CodingKeys: String, CodingKey {
        case name, summary
        case minimumDepth = "minimum_depth"
      }

      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(summary, forKey: .summary)
        try container.encode(minimumDepth, forKey: .minimumDepth)
      }
    }

    struct DefaultSweep: Encodable {
      var sizes, quickSizes, depths: [Int]
      var maximumDepth: Int
      var threads, contendedSizes: [Int]

      enum CodingKeys: String, CodingKey {
        case sizes, depths, threads
        case contendedSizes = "contended_sizes"
        case quickSizes = "quick_sizes"
        case maximumDepth = "maximum_depth"
      }
    }

    var package: String
    var backends: [Backend]
    var references: [Reference]
    var workloads: [Workload]
    var defaultSweep: DefaultSweep

    enum CodingKeys: String, CodingKey {
      case package, backends, references, workloads
      case defaultSweep = "default_sweep"
    }
  }
}
