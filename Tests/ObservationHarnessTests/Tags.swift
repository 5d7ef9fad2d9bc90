import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Tag {
  /// Tests that start the built tool as a process of its own.
  @Tag static var startsTheTool: Self
  /// Cells of the backends over the toolchain's prebuilt libraries (`Observation`, Foundation's
  /// `NotificationCenter`).
  @Tag static var overPrebuiltLibraries: Self
}

extension Trait where Self == ConditionTrait {
  /// Leaves a test out of the address sanitizer's pass (`swift test --sanitize=address`),
  /// saying why: what the sanitizer would check there, the other tests of the same pass check
  /// already. The tags say which tests these are; the pass needs no list of names.
  static func notUnderAddressSanitizer(_ reason: Comment) -> Self {
    .disabled(if: addressSanitizerIsLoaded, reason)
  }
}

/// Whether the address sanitizer's runtime is in this process.
private let addressSanitizerIsLoaded: Bool = {
  #if canImport(Glibc)
  return dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
  #else
  return dlsym(UnsafeMutableRawPointer(bitPattern: -2), "__asan_init") != nil
  #endif
}()
