import ActorObservableBackend
import ArrayBackend
import AsyncShareBackend
import AsyncStreamBackend
import BroadcastBackend
import DenseBackend
import KeyPathBackend
import LinkedListBackend
import NotificationCenterBackend
import ObservationCore
import SubjectBackend
import SwiftObservationBackend

/// The built-in backends: the one list the tests, the `observatory` tool and the benchmarks use,
/// each with the facts a report states about it (`BackendDescription`, declared in `ObservationCore`).
public enum BackendCatalog {
  /// Every built-in backend, in report order.
  public static var all: [any ObservationBackend] { entries.map(\.backend) }

  /// Every built-in backend with its description, in report order.
  public static var entries: [Entry] {
    var collector = Collector()
    forEach(&collector)
    return collector.entries
  }

  /// Calls `visitor` with each built-in backend as its concrete type, with its description, in
  /// report order: the one list of backends, and the way measured code reaches them without an
  /// existential.
  ///
  /// It is inlinable so that, with a concrete visitor, each `visit` call is specialized for its
  /// backend.
  @inlinable
  public static func forEach<Visitor: BackendVisitor>(_ visitor: inout Visitor) {
    let ours = BackendDescription(provenance: .original)
    let openCombine = BackendDescription(provenance: .library("OpenCombine"))
    let observation = BackendDescription(provenance: .library("Swift Observation"))
    visitor.visit(LinkedListStrategy(), ours)
    visitor.visit(ArrayStrategy(), ours)
    visitor.visit(DenseStrategy(), ours)
    visitor.visit(SynchronizedDenseStrategy(), ours)
    visitor.visit(KeyPathStrategy(), ours)
    visitor.visit(PassthroughSubjectStrategy(), openCombine)
    visitor.visit(CurrentValueSubjectStrategy(), openCombine)
    visitor.visit(PublishedPropertyStrategy(), openCombine)
    let published = PublishedPropertyStrategy().name
    visitor.visit(
      PublishedChainStrategy(chain: .flatMap),
      BackendDescription(provenance: .library("OpenCombine"), nestedVariantOf: published))
    visitor.visit(
      PublishedChainStrategy(chain: .switchToLatest),
      BackendDescription(provenance: .library("OpenCombine"), nestedVariantOf: published))
    visitor.visit(SwiftObservationTrackingStrategy(), observation)
    visitor.visit(SwiftObservationsStrategy(), observation)
    visitor.visit(
      AsyncStreamStrategy(),
      BackendDescription(provenance: .library("AsyncStream")))
    visitor.visit(
      AsyncShareStrategy(),
      BackendDescription(provenance: .library("swift-async-algorithms")))
    visitor.visit(
      ActorObservableStrategy(),
      BackendDescription(provenance: .library("Swift concurrency")))
    visitor.visit(AsyncBroadcastStrategy(), ours)
    visitor.visit(
      NotificationCenterStrategy(),
      BackendDescription(provenance: .library("Foundation NotificationCenter")))
  }

  /// A built-in backend and its description.
  public struct Entry {
    /// The backend.
    public let backend: any ObservationBackend
    /// What a report says about it.
    public let description: BackendDescription
  }

  private struct Collector: BackendVisitor {
    var entries: [Entry] = []
    mutating func visit<Backend: ObservationBackend & Sendable>(
      _ backend: Backend, _ description: BackendDescription
    ) {
      entries.append(Entry(backend: backend, description: description))
    }
  }

  /// The names of ``all``, in order.
  public static var names: [String] { all.map(\.name) }

  /// The backend called `name`, or `nil`.
  public static func backend(named name: String) -> (any ObservationBackend)? {
    all.first { $0.name == name }
  }
}

/// Something done with each backend as its concrete type (see ``BackendCatalog/forEach(_:)``).
public protocol BackendVisitor {
  /// Called once per backend, with what a report says about it.
  mutating func visit<Backend: ObservationBackend & Sendable>(
    _ backend: Backend, _ description: BackendDescription)
}

extension BackendCatalog {
  /// Where the behaviour of the built-in backend called `name` comes from; `.original` for a
  /// name the catalog does not have.
  package static func provenance(of name: String) -> BackendProvenance {
    entries.first { $0.backend.name == name }?.description.provenance ?? .original
  }

  /// Whether the built-in backend called `name` is written in this package.
  package static func isOwnBackend(_ name: String) -> Bool {
    provenance(of: name) == .original
  }
}
