import ArrayBackend
import KeyPathBackend
import LinkedListBackend
import NotificationCenterBackend
import ObservationCore
import SubjectBackend
import SwiftObservationBackend

/// The built-in backends: the one list the tests, the `observatory` tool and the benchmarks use.
public enum BackendCatalog {
  /// Every built-in backend, in report order.
  public static var all: [any ObservationBackend] {
    var collector = Collector()
    forEach(&collector)
    return collector.backends
  }

  /// Calls `visitor` with each built-in backend as its concrete type, in report order: the one
  /// list of backends, and the way measured code reaches them without an existential.
  ///
  /// It is inlinable so that, with a concrete visitor, each `visit` call is specialized for its
  /// backend.
  @inlinable
  public static func forEach<Visitor: BackendVisitor>(_ visitor: inout Visitor) {
    visitor.visit(LinkedListStrategy())
    visitor.visit(ArrayStrategy())
    visitor.visit(KeyPathStrategy())
    visitor.visit(PassthroughSubjectStrategy())
    visitor.visit(CurrentValueSubjectStrategy())
    visitor.visit(PublishedPropertyStrategy())
    visitor.visit(PublishedChainStrategy(chain: .flatMap))
    visitor.visit(PublishedChainStrategy(chain: .switchToLatest))
    visitor.visit(SwiftObservationTrackingStrategy())
    visitor.visit(SwiftObservationsStrategy())
    visitor.visit(NotificationCenterStrategy())
  }

  private struct Collector: BackendVisitor {
    var backends: [any ObservationBackend] = []
    mutating func visit<Backend: ObservationBackend>(_ backend: Backend) {
      backends.append(backend)
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
  /// Called once per backend.
  mutating func visit<Backend: ObservationBackend>(_ backend: Backend)
}

/// Who wrote a backend's behaviour: this package, or a library it wraps.
public enum BackendProvenance: Sendable, Hashable {
  /// Written in this package: it must pass every rule it declares.
  case observatory
  /// A thin adapter over another library's behaviour: a failed rule is a finding about it.
  case library(String)
}

extension BackendCatalog {
  /// Where the behaviour of the backend called `name` comes from.
  public static func provenance(of name: String) -> BackendProvenance {
    if name.hasPrefix("combine-") { return .library("OpenCombine") }
    if name.hasPrefix("swift-observation") { return .library("Swift Observation") }
    if name == "notification-center" { return .library("Foundation NotificationCenter") }
    return .observatory
  }

  /// Whether the backend called `name` differs from another built-in backend only in how it
  /// observes nested paths (the Combine chains over `@Published`), so that measuring its
  /// single-property workloads again would repeat the base backend's numbers.
  public static func isNestedVariant(_ name: String) -> Bool {
    name.hasPrefix("combine-published-")
  }

  /// Whether the backend called `name` has delivered a write when `set` returns; `true` for a
  /// name that is not a built-in backend (the reference rows are plain loops).
  public static func deliversSynchronously(_ name: String) -> Bool {
    backend(named: name)?.capabilities.has(.synchronousDelivery) ?? true
  }

  /// Whether the backend called `name` is written in this package.
  public static func isOwnBackend(_ name: String) -> Bool {
    provenance(of: name) == .observatory
  }
}
