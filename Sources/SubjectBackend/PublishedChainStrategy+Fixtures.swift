import ObservationCore
import ObservationFixtures

extension PublishedChainStrategy: NestedPathBackend, PropertyPairBackend {
  /// A chain of `ObservableObject` nodes with `@Published` links, followed with ``chain`` once
  /// per link.
  public func makeNestedPathFixture() -> any NestedPathFixture {
    CombineNestedPathFixture(chain: chain)
  }

  /// An `ObservableObject` with two `@Published` properties.
  public func makePropertyPair() -> any PropertyPairFixture { PublishedPropertyPair() }
}
