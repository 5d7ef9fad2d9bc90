import ObservationCore
import ObservationFixtures

extension PublishedPropertyStrategy: PropertyPairBackend {
  /// An `ObservableObject` with two `@Published` properties.
  public func makePropertyPair() -> any PropertyPairFixture { PublishedPropertyPair() }
}
