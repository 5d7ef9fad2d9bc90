/// A type-erased ``ObservationToken``.
///
/// It forwards ``cancel()`` to the token it wraps and keeps that token alive exactly as long as
/// it lives itself, so the wrapped token's own lifetime semantics (cancelling on deinit or not)
/// are preserved through erasure.
public final class AnyObservationToken: ObservationToken {
  @usableFromInline
  internal let base: any ObservationToken

  /// Wraps `base`.
  @inlinable
  public init(_ base: some ObservationToken) {
    self.base = base
  }

  /// Cancels the wrapped token.
  @inlinable
  public func cancel() {
    base.cancel()
  }
}
