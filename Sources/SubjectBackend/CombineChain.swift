/// How a Combine chain follows a nested path such as `root.controller?.player?.title`.
public enum CombineChain: String, Sendable, CaseIterable {
  /// `flatMap`, with a `nil` intermediate turned into a publisher of `nil`: what most Combine
  /// code writes. `flatMap` keeps every inner subscription it ever made.
  case flatMap
  /// `map` to the inner publisher, then `switchToLatest`, which cancels the previous inner
  /// subscription.
  case switchToLatest
}
