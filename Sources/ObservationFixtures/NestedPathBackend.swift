import ObservationCore

/// A backend that observes nested paths with a mechanism of its own.
///
/// The KP conformance rules and the harness's `nested` workload then observe the backend's own
/// objects instead of its subjects chained with `AnyObservable/flatMapLatest(_:)`. Built-in
/// backends conform exactly as a third party's would:
///
/// ```swift
/// extension MyBackend: NestedPathBackend {
///   func makeNestedPathFixture() -> any NestedPathFixture { MyNestedPathFixture() }
/// }
/// ```
public protocol NestedPathBackend: ObservationBackend {
  /// A fresh fixture, observed with the backend's own nested observation.
  func makeNestedPathFixture() -> any NestedPathFixture
}
