import ObservationCore
import ObservationFixtures

extension KeyPathStrategy: NestedPathBackend, PropertyPairBackend {
  /// A chain of `KeyPathObservable` nodes observed with one key path,
  /// `root.observe(\.next?.next?.title, ...)` at depth 3.
  public func makeNestedPathFixture() -> any NestedPathFixture { KeyPathNestedPathFixture() }

  /// An object with two `@Tracked` properties and a computed property reading both.
  public func makePropertyPair() -> any PropertyPairFixture { KeyPathPropertyPair() }
}
