/// How the tool is built to measure with, as the README's main command builds it: in release,
/// with the Swift runtime linked in, and the `observatory` product alone.
///
/// The product is named because `swift build` without one builds every target of the package,
/// and some (the test-support targets and `ObservationConformanceTesting`) import Swift Testing,
/// which the toolchain ships only for the shared runtime: with `--static-swift-stdlib` their
/// compiles fail with `no such module 'Testing'`.
enum ReleaseBuild {
  /// `swift build`'s arguments for `product`, before any option of the caller's own.
  ///
  /// - Complexity: O(1).
  static func arguments(product: String) -> [String] {
    ["build", "-c", "release", "--static-swift-stdlib", "--product", product]
  }

  /// The build command, as a person types it.
  static let command = "swift " + arguments(product: "observatory").joined(separator: " ")

  /// The build command, then the built tool with `arguments` (none for the main job).
  ///
  /// - Complexity: O(*n*) in the length of `arguments`.
  static func then(_ arguments: String = "") -> String {
    command + " && .build/release/observatory" + (arguments.isEmpty ? "" : " " + arguments)
  }
}
