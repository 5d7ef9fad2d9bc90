import ObservationCore

/// A backend that puts several observable properties on one object.
///
/// The AGG conformance rules then observe the backend's own object instead of two separate
/// subjects. Built-in backends conform exactly as a third party's would.
public protocol PropertyPairBackend: ObservationBackend {
  /// A fresh object with `a == 0` and `b == 0`.
  func makePropertyPair() -> any PropertyPairFixture
}
