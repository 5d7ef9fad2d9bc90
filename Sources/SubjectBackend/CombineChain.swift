/// How a Combine chain follows `root.controller?.player?.title`.
public enum CombineChain: String, Sendable, CaseIterable {
  /// `flatMap` with optional-unwrapping overloads: what most Combine code writes. `flatMap`
  /// keeps every inner subscription it ever made.
  case flatMap
  /// `map` to the inner publisher, then `switchToLatest`, which cancels the previous inner
  /// subscription.
  case switchToLatest
}
