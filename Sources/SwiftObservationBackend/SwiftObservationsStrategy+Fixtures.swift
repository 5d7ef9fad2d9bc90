import ObservationCore
import ObservationFixtures

extension SwiftObservationsStrategy: NestedPathBackend, PropertyPairBackend {
  /// A chain of `@Observable` nodes observed with one `Observations` sequence,
  /// `Observations { root.next?.next?.title }` at depth 3.
  public func makeNestedPathFixture() -> any NestedPathFixture { ObservationsNestedPathFixture() }

  /// An `@Observable` object with two properties and a computed property reading both.
  public func makePropertyPair() -> any PropertyPairFixture { ObservationsPropertyPair() }
}
