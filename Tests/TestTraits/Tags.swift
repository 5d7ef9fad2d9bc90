import Testing

extension Tag {
  /// Cells of the backends over the toolchain's prebuilt libraries (`Observation`, Foundation's
  /// `NotificationCenter`).
  @Tag package static var overPrebuiltLibraries: Self
}

extension Trait where Self == ConditionTrait {
  /// Leaves a test out of the address sanitizer's pass (`swift test --sanitize=address`),
  /// saying why: what the sanitizer would check there, the other tests of the same pass check
  /// already. The tags say which tests these are; the pass needs no list of names.
  package static func notUnderAddressSanitizer(_ reason: Comment) -> Self {
    .disabled(if: Sanitizer.address, reason)
  }
}
