import ObservationCore

/// `@Published` with nested paths followed by a Combine chain: one matrix row per chain.
///
/// For single properties it is exactly ``PublishedPropertyStrategy``; for nested paths it
/// declares `nestedKeyPaths` and follows `root.controller?.player?.title` with the chain, so the
/// KP rules show which chain is right (its fixtures are in `PublishedChainStrategy+Fixtures.swift`).
public struct PublishedChainStrategy: ObservationBackend, Sendable {
  /// The chain used for nested paths.
  public let chain: CombineChain

  /// Creates the backend for `chain`.
  public init(chain: CombineChain) { self.chain = chain }

  /// `combine-published-flatmap` or `combine-published-switchtolatest`.
  public var name: String { "combine-published-" + chain.rawValue.lowercased() }

  /// `@Published`'s declaration plus `nestedKeyPaths`.
  public var capabilities: BackendCapabilities {
    var declared = PublishedPropertyStrategy().capabilities
    declared.flags.insert(.nestedKeyPaths)
    return declared
  }

  /// A new ``PublishedObservable``.
  public func makeSubject(initialValue: Int) -> PublishedObservable<Int> {
    PublishedObservable(initialValue)
  }

  /// A new ``PublishedObservable`` of any value type.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    PublishedObservable(initialValue)
  }
}
