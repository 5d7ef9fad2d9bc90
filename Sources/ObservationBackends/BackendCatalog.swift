import ArrayBackend
import KeyPathBackend
import LinkedListBackend
import ObservationCore
import SubjectBackend

/// The built-in backends: the one list the tests, the `observatory` tool and the benchmarks use.
public enum BackendCatalog {
  /// Every built-in backend, in report order.
  public static var all: [any ObservationBackend] {
    [
      LinkedListStrategy(),
      ArrayStrategy(),
      KeyPathStrategy(),
      PassthroughSubjectStrategy(),
      CurrentValueSubjectStrategy(),
      PublishedPropertyStrategy(),
      PublishedChainStrategy(chain: .flatMap),
      PublishedChainStrategy(chain: .switchToLatest),
    ]
  }

  /// The names of ``all``, in order.
  public static var names: [String] { all.map(\.name) }

  /// The backend called `name`, or `nil`.
  public static func backend(named name: String) -> (any ObservationBackend)? {
    all.first { $0.name == name }
  }
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
    name.hasPrefix("combine-") ? .library("OpenCombine") : .observatory
  }

  /// Whether the backend called `name` is written in this package.
  public static func isOwnBackend(_ name: String) -> Bool {
    provenance(of: name) == .observatory
  }
}
