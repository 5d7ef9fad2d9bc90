#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sanitizer this test process was built with, if any (`swift test --sanitize=…`).
///
/// Some suites exist for one sanitizer's step of CI and repeat, without it, what another test
/// of the same run already checks: they run only under that sanitizer, and say so when skipped.
/// Others start processes or reach libraries the sanitizer cannot see into, and are left out
/// of its pass (``Testing/Trait/notUnderAddressSanitizer(_:)``).
package enum Sanitizer {
  /// Whether the thread sanitizer's runtime is in this process.
  package static let thread = runtimeIsLoaded("__tsan_init")
  /// Whether the address sanitizer's runtime is in this process.
  package static let address = runtimeIsLoaded("__asan_init")

  /// Whether `symbol`, an entry point of a sanitizer's runtime, is in this process.
  ///
  /// - Complexity: one dynamic-linker look-up.
  private static func runtimeIsLoaded(_ symbol: String) -> Bool {
    #if canImport(Glibc)
    return dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) != nil
    #else
    return dlsym(UnsafeMutableRawPointer(bitPattern: -2), symbol) != nil
    #endif
  }
}
