import ObservationCore

extension ObservationBackend {
  /// The backend's own nested-path fixture if it has nested observation of its own
  /// (``NestedPathBackend``), else one built from its subjects (``SubjectNestedPathFixture``);
  /// `nil` if neither exists.
  public func makeAnyNestedPathFixture() -> (any NestedPathFixture)? {
    if let native = self as? any NestedPathBackend { return native.makeNestedPathFixture() }
    return SubjectNestedPathFixture(backend: self)
  }
}
