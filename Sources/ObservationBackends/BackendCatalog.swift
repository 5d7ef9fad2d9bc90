import ArrayBackend
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
      PassthroughSubjectStrategy(),
      CurrentValueSubjectStrategy(),
      PublishedPropertyStrategy(),
    ]
  }

  /// The names of ``all``, in order.
  public static var names: [String] { all.map(\.name) }

  /// The backend called `name`, or `nil`.
  public static func backend(named name: String) -> (any ObservationBackend)? {
    all.first { $0.name == name }
  }
}
