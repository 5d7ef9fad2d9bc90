/// What a key-path observation reports, after Foundation's `NSKeyValueObservingOptions`.
public struct KeyPathObservingOptions: OptionSet, Sendable, Hashable {
  /// The raw bits.
  public let rawValue: Int

  /// Creates options from raw bits.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Include the new value in each change.
  public static let new = KeyPathObservingOptions(rawValue: 1 << 0)
  /// Include the old value in each change.
  public static let old = KeyPathObservingOptions(rawValue: 1 << 1)
  /// Call the handler once, at once, with the current value.
  public static let initial = KeyPathObservingOptions(rawValue: 1 << 2)
  /// Call the handler before each change too, with `isPrior` set.
  public static let prior = KeyPathObservingOptions(rawValue: 1 << 3)
}

/// One change reported by a key-path observation, after Foundation's `NSKeyValueObservedChange`.
public struct KeyPathChange<Value> {
  /// The value after the change, if `.new` was requested (and for `.initial` calls).
  public let newValue: Value?
  /// The value before the change, if `.old` was requested.
  public let oldValue: Value?
  /// Whether this call comes before the change (only with `.prior`).
  public let isPrior: Bool
}
